package dev.tidemill.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A JUnit test class that talks to a Tidemill app: the app comes from the class's static method
 * annotated {@link TidemillApp}, is started once before the class's first test (on a free
 * loopback port, or in memory with {@link #inMemory()}) and stopped after its last; test methods,
 * lifecycle methods and constructors receive it as parameters of type {@link TestClient},
 * {@link dev.tidemill.Server} (socket mode) or {@link dev.tidemill.InMemoryServer} (in memory).
 *
 * <pre>{@code
 * @TidemillTest
 * class HelloTest {
 *     @TidemillApp
 *     static Tidemill app(Config.Builder config) {   // config: 127.0.0.1, port 0
 *         Tidemill app = Tidemill.create(config.build());
 *         app.get("/hello", req -> "Hello");
 *         return app;
 *     }
 *
 *     @Test
 *     void hello(TestClient client) {
 *         assertThat(client.get("/hello").text()).isEqualTo("Hello");
 *     }
 * }
 * }</pre>
 *
 * Nested test classes without their own {@link TidemillApp} method share the enclosing class's app.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(TidemillExtension.class)
public @interface TidemillTest {

    /**
     * @return true to serve the app in memory ({@link TestClient#inMemory}: the real HTTP/1.1
     *     pipeline without a socket, for fast tests of handlers); false (the default) to start it
     *     on a free loopback port ({@link TestClient#start})
     */
    boolean inMemory() default false;
}
