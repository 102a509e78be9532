-- How an endpoint is called: "http" (an HTTP method on a URL) or "mcp" (a tool of an MCP server,
-- method MCP, its URL the server's with the tool's name as fragment). The method decides, and the
-- check keeps the two in step whichever writer inserts the row.
ALTER TABLE "endpoints" ADD COLUMN "transport" TEXT NOT NULL DEFAULT 'http';
ALTER TABLE "endpoints" ADD CONSTRAINT "endpoints_transport_check"
  CHECK ("transport" IN ('http', 'mcp') AND (("method" = 'MCP') = ("transport" = 'mcp')));
