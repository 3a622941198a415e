package dev.tidemill.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the static method of a {@link TidemillTest} class that builds the app under test. It
 * returns a {@link dev.tidemill.Tidemill}, not yet started, and takes either nothing or one
 * {@link dev.tidemill.Config.Builder}, which comes preset for tests ({@link TestClient#config()}:
 * {@code 127.0.0.1}, port 0). For a socket test the app must be on port 0. One such method per
 * class (it may be inherited).
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface TidemillApp {}
