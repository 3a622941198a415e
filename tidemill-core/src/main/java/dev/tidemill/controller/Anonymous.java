package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Anyone may call, not authenticated ({@link dev.tidemill.Requirement#anonymous()}): an auth
 * decision, as a {@link Tool} needs one; it lifts an inherited requirement. With
 * {@link #identify()} a caller who presents credentials is still identified
 * ({@link dev.tidemill.Requirement#anyone()}).
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Anonymous {
    /** @return whether a caller with credentials is identified (and refused if they are wrong); false by default */
    boolean identify() default false;
}
