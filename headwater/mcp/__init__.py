"""The MCP server: JSON-RPC 2.0 over stdio, one snapshot per process, reads and sealed writes."""
