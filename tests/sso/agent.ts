/**
 * A minimal browser for redirect flows in tests: a cookie jar per host
 * (names and values; `Max-Age=0` deletes), redirects followed one by one
 * so a test can stop at any hop, and the first form of an HTML page posted.
 */
export class Agent {
  readonly jar = new Map<string, Map<string, string>>();

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  private store(url: URL, res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const jar = this.jar.get(url.host) ?? new Map<string, string>();
      this.jar.set(url.host, jar);
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === "") jar.delete(name);
      else jar.set(name, value);
    }
  }

  /** One request, no redirect followed. */
  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const headers = new Headers(init.headers);
    const cookies = [...(this.jar.get(u.host) ?? new Map())].map(([k, v]) => `${k}=${v}`).join("; ");
    if (cookies) headers.set("cookie", cookies);
    const res = await fetch(u, { ...init, headers, redirect: "manual" });
    this.store(u, res);
    return res;
  }

  /**
   * Follows redirects from `url` until a response is not a redirect or `stopAt(url)` says so.
   * @returns the last response and its URL.
   */
  async follow(url: string | URL, stopAt: (u: URL) => boolean = () => false, init: RequestInit = {}): Promise<{ res: Response; url: URL }> {
    let u = new URL(url);
    let res = await this.fetch(u, init);
    for (let hops = 0; hops < 20 && res.status >= 300 && res.status < 400; hops++) {
      const next = new URL(res.headers.get("location")!, u);
      if (stopAt(next)) return { res, url: u };
      u = next;
      res = await this.fetch(u);
    }
    return { res, url: u };
  }

  /** Posts the page's first form with `fields` (plus its hidden inputs), not following redirects. */
  async submitForm(page: URL, html: string, fields: Record<string, string>): Promise<Response> {
    const action = /<form[^>]*action="([^"]*)"/i.exec(html)?.[1];
    if (!action) throw new Error(`no form on ${page}: ${html.slice(0, 300)}`);
    const body = new URLSearchParams();
    for (const m of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]*)"[^>]*value="([^"]*)"/gi)) body.set(m[1]!, m[2]!);
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return this.fetch(new URL(action.replaceAll("&amp;", "&"), page), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body,
    });
  }
}
