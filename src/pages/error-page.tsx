import { Layout } from "./layout";
import { Untrusted } from "./widgets";

/** A page's refusal in HTML: the same status and message the JSON API gives. */
export function ErrorPage({ status, message, path }: { status: number; message: string; path: string }) {
  return (
    <Layout title={status === 404 ? "Not found" : "Cannot show this page"} path={path} links={{ json: "/" }}>
      <h1>{status === 404 ? "Not found" : "Cannot show this page"}</h1>
      <p role="alert">
        <Untrusted text={message} max={1000} />
      </p>
      <p>
        <a href="/services">Back to the services</a>
      </p>
    </Layout>
  );
}
