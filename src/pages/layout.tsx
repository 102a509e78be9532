import type { ComponentChildren } from "preact";
import { renderToString } from "preact-render-to-string";

export interface PageLinks {
  /** The same data as JSON (an API URL with the page's query). */
  json: string;
  /** The same data as CSV, when the API exports it. */
  csv?: string;
}

interface LayoutProps {
  title: string;
  /** The path of the page, to mark the current section in the navigation. */
  path: string;
  links: PageLinks;
  children: ComponentChildren;
}

const SECTIONS = [
  { href: "/", label: "Overview" },
  { href: "/services", label: "Services" },
  { href: "/endpoints", label: "Endpoints" },
  { href: "/stats", label: "Stats" },
] as const;

function isCurrent(section: string, path: string): boolean {
  return section === "/" ? path === "/" : path === section || path.startsWith(`${section}/`);
}

/** Every page's frame: landmarks, navigation, the data links and our own stylesheet and script. */
export function Layout({ title, path, links, children }: LayoutProps) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · x402 catalogue`}</title>
        <link rel="stylesheet" href="/assets/pages.css" />
        <script src="/assets/pages.js" defer />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="site">
          <nav aria-label="Main">
            <ul>
              {SECTIONS.map((section) => (
                <li key={section.href}>
                  <a href={section.href} aria-current={isCurrent(section.href, path) ? "page" : undefined}>
                    {section.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        </header>
        <main id="main">{children}</main>
        <footer class="site">
          <p>
            This page as data: <a href={links.json}>JSON</a>
            {links.csv === undefined ? null : (
              <>
                {" · "}
                <a href={links.csv}>CSV</a>
              </>
            )}
            {" · "}
            <a href="/docs">API reference</a>
          </p>
        </footer>
      </body>
    </html>
  );
}

/** A whole HTML document from a page's element. */
export function renderPage(page: preact.VNode): string {
  return `<!doctype html>${renderToString(page)}`;
}
