/**
 * Controllers: classes whose annotated methods become routes, generated at compile time by
 * {@code tidemill-processor} (docs/controllers.md). The processor writes, for each
 * {@link Controller} class, a {@code <Class>Routes} class that registers its methods as ordinary
 * routes of the lambda API, calling each method directly with typed arguments, and one index per
 * module that {@link dev.tidemill.Tidemill#controllers(Object...)} finds as a
 * {@link dev.tidemill.ControllerIndex} service. Nothing here is read at run time: every annotation
 * is kept in the class file only, for the processor of a later partial recompile.
 *
 * <pre>{@code
 * @Controller("/items")
 * public final class ItemsController {
 *     @Get("/{id}")
 *     @Anonymous
 *     public Item get(@PathParam int id, @QueryParam(defaultValue = "false") boolean verbose) { ... }
 * }
 * app.controllers(new ItemsController(repo));
 * }</pre>
 */
package dev.tidemill.controller;
