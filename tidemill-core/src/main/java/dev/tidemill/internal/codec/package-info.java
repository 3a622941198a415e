/** JSON (Jackson 3), body binding and validation (Hibernate Validator), and problem+json rendering. */
package dev.tidemill.internal.codec;
