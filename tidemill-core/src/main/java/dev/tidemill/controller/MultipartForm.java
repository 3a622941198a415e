package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The request body as a {@code multipart/form-data} form bound to this record or bean (file parts
 * into {@link dev.tidemill.Upload} components), as {@link dev.tidemill.Route#multipart(Class)}
 * declares it. See {@link Body}.
 */
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.PARAMETER)
public @interface MultipartForm {}
