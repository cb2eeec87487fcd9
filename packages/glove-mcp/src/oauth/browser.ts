import { spawn } from "node:child_process";

/** Whether this process can plausibly open a browser the user will see. */
export function canOpenBrowser(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (env.CI) return false;
  if (platform === "darwin" || platform === "win32") return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** The platform's URL opener as argv: the URL is one argument, never parsed by a shell. */
export function openerCommand(url: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === "darwin") return ["open", [url]];
  // rundll32 hands the URL to the default handler without cmd.exe (whose `start` would
  // interpret &, | and ^ in a server-supplied URL).
  if (platform === "win32") return ["rundll32", ["url.dll,FileProtocolHandler", url]];
  return ["xdg-open", [url]];
}

/**
 * Opens an http(s) URL in the default browser. The authorization URL comes from the
 * authorization server's metadata, so it is checked and passed as a single argument with
 * `shell: false`. Resolves false when no opener could be started.
 */
export async function openInBrowser(url: URL): Promise<boolean> {
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new TypeError(`Refusing to open a non-HTTP authorization URL (${url.protocol}).`);
  }
  const [command, args] = openerCommand(url.href);
  return new Promise<boolean>((resolve) => {
    const child = spawn(command, args, { shell: false, stdio: "ignore", detached: true });
    child.once("error", () => resolve(false));
    child.once("spawn", () => {
      child.unref();
      resolve(true);
    });
  });
}
