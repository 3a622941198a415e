/**
 * The OpenAPI 3.1 document, built from the routes the router uses: Java types to JSON Schema
 * ({@code Schemas}, {@code Constraints}), routes to operations ({@code OpenApiDocument}), and the
 * Swagger UI page and files ({@code SwaggerUi}).
 */
package dev.tidemill.internal.openapi;
