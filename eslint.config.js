import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Code that reaches browsers: zod's named `z` export keeps every locale in bundlers that cannot
    // shake an object's members (esbuild: 560 KiB instead of 200 KiB for glove-core's root).
    files: [
      "packages/glove-core/src/**/*.ts",
      "packages/glove-client/src/**/*.ts",
      "packages/glove-react/src/**/*.{ts,tsx}",
    ],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            'ImportDeclaration[source.value="zod"][importKind!="type"] > ImportSpecifier[imported.name="z"][importKind!="type"]',
          message: 'Import zod as a namespace (import * as z from "zod") so bundlers leave its locales out.',
        },
      ],
    },
  },
  {
    files: ["packages/glove-core/src/**/*.ts"],
    rules: {
      // The core entry must stay browser-safe.
      "no-restricted-imports": ["error", { patterns: ["node:*"] }],
    },
  },
);
