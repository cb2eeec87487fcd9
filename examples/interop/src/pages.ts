/**
 * The three frontends this server serves, each built by Vite with its own config and a `base` of
 * its mount path (`npm run build:ui` → dist/pages/<mount>), so their files never collide on one origin.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { staticUi } from "glove-example-web-chat";

const PACKAGE_DIR = dirname(dirname(fileURLToPath(import.meta.url)));

/** examples/interop/dist/pages: where `npm run build:ui` writes the three builds (git-ignored, like all of dist). */
export const DEFAULT_PAGES_DIR = join(PACKAGE_DIR, "dist", "pages");

export interface PageSource {
  /** The page is served at `/<mount>/`, its files under `/<mount>/assets/`. */
  mount: string;
  /** What the page is, for the index at "/". */
  title: string;
  /** The example's Vite project (its ui folder, with vite.config.ts). */
  uiRoot: string;
}

export const PAGES: readonly PageSource[] = [
  { mount: "glove-react", title: "glove-react (the native routes)", uiRoot: join(PACKAGE_DIR, "..", "web-chat", "ui") },
  {
    mount: "assistant-ui",
    title: "assistant-ui (the AG-UI route)",
    uiRoot: join(PACKAGE_DIR, "..", "ag-ui-chat", "ui"),
  },
  {
    mount: "use-chat",
    title: "the AI SDK's useChat (GloveChatTransport)",
    uiRoot: join(PACKAGE_DIR, "..", "use-chat", "ui"),
  },
];

/** The Vite `base` of a page: its mount path with slashes around it. */
export const pageBase = (page: PageSource): string => `/${page.mount}/`;

export interface MountedPages {
  /** The response for a GET/HEAD of `pathname` below one page's mount, or undefined. */
  serve(pathname: string, head: boolean): Promise<Response | undefined>;
}

/** Each page's build from `pagesDir/<mount>`, served below its mount (index at `/<mount>/`). */
export function mountedPages(pagesDir: string): MountedPages {
  const mounted = PAGES.map((page) => ({ prefix: `/${page.mount}`, ui: staticUi(join(pagesDir, page.mount)) }));
  return {
    async serve(pathname, head) {
      for (const { prefix, ui } of mounted) {
        if (pathname === prefix) return new Response(null, { status: 308, headers: { location: `${prefix}/` } });
        if (pathname.startsWith(`${prefix}/`)) return ui.serve(pathname.slice(prefix.length), head);
      }
      return undefined;
    },
  };
}

/** The page at "/": links to the three frontends. */
export function indexPage(): Response {
  const links = PAGES.map((page) => `<li><a href="${pageBase(page)}">${page.title}</a></li>`).join("\n");
  const html = `<!doctype html><meta charset="utf-8"><title>One glove-server, three frontends</title>
<h1>One glove-server, three frontends</h1>
<p>Each page talks to the same server under <code>/api</code>, as the same demo user:</p>
<ul>
${links}
</ul>`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": "default-src 'none'",
      "cache-control": "no-store",
    },
  });
}
