-- How an endpoint is called: "http" (an HTTP method on a URL) or "mcp" (a tool of an MCP server,
-- method MCP, its URL the server's with the tool's name as fragment: src/mcp-tools/tool-url.ts).
-- The method decides; the trigger sets it on every insert and update, whichever writer it is.
-- (A CHECK constraint would crash the WASM schema engine's diff.)
ALTER TABLE "endpoints" ADD COLUMN "transport" TEXT NOT NULL DEFAULT 'http';

CREATE FUNCTION endpoint_transport() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.transport := CASE WHEN NEW.method = 'MCP' THEN 'mcp' ELSE 'http' END;
  RETURN NEW;
END $$;

CREATE TRIGGER endpoints_transport BEFORE INSERT OR UPDATE OF method ON "endpoints"
  FOR EACH ROW EXECUTE FUNCTION endpoint_transport();
