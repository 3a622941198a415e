package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The media type of what a method returning {@code String} or {@code byte[]} (or a
 * {@code CompletionStage} of one) answers, instead of {@code text/plain; charset=utf-8} or
 * {@code application/octet-stream}; the OpenAPI document says it too ({@link dev.tidemill.Route#produces}).
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.METHOD)
public @interface Produces {
    /** @return a media type, e.g. {@code text/csv; charset=utf-8} */
    String value();
}
