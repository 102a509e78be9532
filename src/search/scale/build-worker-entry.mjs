// Worker threads do not inherit the TypeScript loader reliably on Node 20, so the worker starts
// from this plain module and loads its TypeScript through tsx's API.
import { tsImport } from "tsx/esm/api";

await tsImport("./build-worker.ts", import.meta.url);
