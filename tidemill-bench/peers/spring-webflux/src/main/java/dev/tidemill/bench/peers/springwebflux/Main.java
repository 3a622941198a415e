package dev.tidemill.bench.peers.springwebflux;

import dev.tidemill.bench.common.PageData;
import dev.tidemill.bench.common.Scenario;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.bind.support.WebExchangeBindException;

/**
 * Spring Boot 4 WebFlux peer on Reactor Netty: an annotated {@code @RestController}, Jackson 3 (Boot's
 * default) for JSON, {@code @Valid} Bean Validation (Hibernate Validator) on the POST with an
 * {@code @ExceptionHandler} that answers 422, and Boot's production defaults otherwise (no access
 * log: Reactor Netty's is off unless {@code reactor.netty.http.server.accessLogEnabled} is set;
 * {@code server.compression.enabled=true}, Boot's response compression for clients that accept it,
 * which only the browser-mix scenario sends; no actuator). Logging at WARN and no banner, so nothing is logged per request. The
 * Netty event loop count is Reactor Netty's {@code reactor.netty.ioWorkerCount} system property, set
 * to the I/O thread argument before Reactor Netty loads; the native epoll transport that
 * Reactor Netty brings is used. The page is rendered programmatically (see {@link PageData#render}): Boot's
 * template starters would bring a view resolver and a template library that no other target pays
 * for in the same way.
 */
@SpringBootApplication(proxyBeanMethods = false)
public class Main {

    public static void main(String[] args) {
        String port = args[0];
        String ioThreads = args[1];
        System.setProperty("reactor.netty.ioWorkerCount", ioThreads);
        SpringApplication app = new SpringApplication(Main.class);
        Map<String, Object> props = new LinkedHashMap<>();
        props.put("server.port", port);
        props.put("server.address", "127.0.0.1");
        props.put("spring.main.banner-mode", "off");
        props.put("logging.level.root", "warn");
        props.put("server.compression.enabled", "true");
        app.setDefaultProperties(props);
        app.run();
        System.out.println("spring-webflux listening on 127.0.0.1:" + port + " (" + ioThreads + " event loops)");
    }

    /** The JSON message. */
    public record Message(String message) {}

    /** The user answer. */
    public record User(long id, String name) {}

    /** The validated body: name non-empty after trimming, age 0-150 (Scenario.valid). */
    public record Person(@NotBlank String name, @NotNull @Min(0) @Max(150) Long age) {}

    /** The endpoints. */
    @RestController
    public static class Endpoints {
        @GetMapping(path = Scenario.PLAINTEXT_PATH, produces = MediaType.TEXT_PLAIN_VALUE)
        public String plaintext() {
            return Scenario.PLAINTEXT_BODY;
        }

        @GetMapping(path = Scenario.JSON_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
        public Message json() {
            return new Message("Hello, World!");
        }

        @GetMapping(path = Scenario.USER_PATH_PREFIX + "{id}", produces = MediaType.APPLICATION_JSON_VALUE)
        public User user(@PathVariable long id) {
            return new User(id, "user-" + id);
        }

        @PostMapping(path = Scenario.VALIDATE_PATH, produces = MediaType.APPLICATION_JSON_VALUE)
        public Person validate(@Valid @RequestBody Person person) {
            return person;
        }

        @GetMapping(path = Scenario.PAGE_PATH, produces = "text/html;charset=utf-8")
        public String page() {
            return PageData.render();
        }

        @ExceptionHandler(WebExchangeBindException.class)
        public ResponseEntity<Void> invalid(WebExchangeBindException e) {
            return ResponseEntity.status(422).build();
        }
    }
}
