package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The request body as a URL-encoded form bound to this record or bean and validated, as
 * {@link dev.tidemill.Route#form(Class)} declares it. See {@link Body}.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface Form {}
