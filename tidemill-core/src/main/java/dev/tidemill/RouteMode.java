package dev.tidemill;

/**
 * Where one route's handler runs, read from a running server ({@link Server#routeModes()}).
 *
 * @param method the route's method
 * @param pattern the route's pattern
 * @param declared the mode it was given: its own, else its groups', else the app's; {@link ExecutionMode#AUTO} included
 * @param current where its calls run now: {@code declared}, or what {@link ExecutionMode#AUTO} chose (never AUTO)
 * @param why the reason, with the measurement that decided it for AUTO
 * @param moves times AUTO moved it (0 for an explicit mode)
 */
public record RouteMode(String method, String pattern, ExecutionMode declared, ExecutionMode current, String why, long moves) {}
