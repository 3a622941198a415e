package dev.tidemill.controller;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * What the OpenAPI document says of the operation ({@link dev.tidemill.Route#summary},
 * {@link dev.tidemill.Route#description}, {@link dev.tidemill.Route#tags},
 * {@link dev.tidemill.Route#operationId}); on the class, its tags are added to every method's.
 */
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.METHOD, ElementType.TYPE})
public @interface Operation {
    /** @return one-line summary; none by default */
    String summary() default "";

    /** @return longer description (CommonMark); none by default */
    String description() default "";

    /** @return tags; none by default */
    String[] tags() default {};

    /** @return the operationId; derived from method and pattern by default */
    String operationId() default "";
}
