/**
 * The Model Context Protocol endpoint ({@code Tidemill.mcp()}): routes marked as tools, listed and
 * called over Streamable HTTP in both protocol eras, each call running its route through the
 * server's own request path as the MCP request's caller.
 */
package dev.tidemill.internal.mcp;
