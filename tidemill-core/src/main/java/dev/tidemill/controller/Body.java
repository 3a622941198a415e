package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The request body as JSON bound to this record or bean and validated, as
 * {@link dev.tidemill.Route#body(Class)} and {@link dev.tidemill.Request#body(Class)} do: 415 for
 * another media type, 400 for malformed JSON, 422 per invalid field. At most one body per method,
 * and none on {@code GET}.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Body {}
