package dev.tidemill;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Guards the public API: no type from {@code dev.tidemill.internal} leaks into a public signature
 * of a public type or of any public type nested in one, and the module exports nothing but
 * {@code dev.tidemill}, {@code dev.tidemill.html}, {@code dev.tidemill.datastar} and {@code dev.tidemill.controller}.
 */
class PublicApiBoundaryTest {
    private static final List<Class<?>> PUBLIC_TYPES = List.of(
            Tidemill.class, Config.class, Config.Builder.class, Limits.class, Limits.Builder.class, Timeouts.class,
            Timeouts.Builder.class, Compression.class, Compression.Builder.class, Operations.class, Operations.Builder.class,
            Health.class, ReadinessCheck.class, TraceParent.class, StaticAssets.class,
            StaticAssets.Builder.class, Request.class, RequestBody.class,
            Response.class, ResponseStream.class, Param.class, ParamType.class, Problem.class, OpenApi.class,
            Problem.FieldError.class, ProblemException.class, Route.class, RouteGroup.class, RouteMode.class, Routes.class,
            Handler.class, Filter.class, Filter.Chain.class, ExceptionMapper.class, JsonCodec.class, Server.class,
            InMemoryServer.class, InMemoryConnection.class,
            ExecutionMode.class, Transport.class, Assignment.class, Topic.class, Subscription.class,
            TopicOverflowException.class, TopicUnavailableException.class, MessageId.class, Mcp.class, Mcp.Builder.class, ToolContent.class, ToolCall.class, ToolCall.Level.class, ConsumerGroup.class, ConsumerGroup.Builder.class, ConsumerRoute.class, SseEvent.class, SseStream.class, WebSocket.class, WebSocketHandler.class,
            WebSocketMessage.class, WebSocketOptions.class, WebSocketOptions.Builder.class, WebSocketOverflowException.class,
            dev.tidemill.html.Html.class, dev.tidemill.html.Attr.class, dev.tidemill.html.Element.class,
            dev.tidemill.html.Tags.class, dev.tidemill.html.Svg.class, dev.tidemill.html.Bake.class,
            dev.tidemill.datastar.Datastar.class, dev.tidemill.datastar.Dialect.class, dev.tidemill.datastar.PatchMode.class,
            dev.tidemill.datastar.Namespace.class, dev.tidemill.datastar.DatastarEvent.class,
            dev.tidemill.datastar.PatchElements.class, dev.tidemill.datastar.PatchSignals.class,
            dev.tidemill.datastar.ExecuteScript.class, dev.tidemill.datastar.Action.class,
            dev.tidemill.datastar.SignalLimits.class,
            Cors.class, Cors.Builder.class, RateLimit.class, RateLimit.Builder.class, TrustedProxies.class,
            Multipart.class, Multipart.Part.class, Upload.class,
            Tls.class, Tls.Builder.class, Tls.Identity.class, Tls.Provider.class, Tls.ClientAuth.class,
            Auth.class, BearerTokens.class, BearerTokens.Builder.class, Principal.class, Principal.Via.class, Requirement.class,
            ApiKeys.class, Session.class, SessionStore.class, Sessions.class, Sessions.Builder.class, BasicUsers.class,
            OidcLogin.class, OidcLogin.Builder.class, ControllerIndex.class,
            dev.tidemill.controller.Controller.class, dev.tidemill.controller.Get.class, dev.tidemill.controller.Post.class, dev.tidemill.controller.Put.class, dev.tidemill.controller.Patch.class, dev.tidemill.controller.Delete.class, dev.tidemill.controller.PathParam.class, dev.tidemill.controller.QueryParam.class,
            dev.tidemill.controller.HeaderParam.class, dev.tidemill.controller.CookieParam.class, dev.tidemill.controller.Body.class, dev.tidemill.controller.Form.class, dev.tidemill.controller.MultipartForm.class, dev.tidemill.controller.Mode.class, dev.tidemill.controller.Produces.class, dev.tidemill.controller.Status.class,
            dev.tidemill.controller.Returns.class, dev.tidemill.controller.Requires.class, dev.tidemill.controller.Anonymous.class, dev.tidemill.controller.RateLimited.class, dev.tidemill.controller.Operation.class, dev.tidemill.controller.Tool.class);

    @Test
    void noInternalTypeAppearsInAPublicSignature() {
        List<String> leaks = new ArrayList<>();
        List<Class<?>> types = new ArrayList<>();
        for (Class<?> c : PUBLIC_TYPES) withNested(c, types);
        assertThat(types).as("nested public types are covered too").contains(Response.Body.Stream.class, Response.Body.File.class,
                Response.StreamProducer.class, JsonCodec.MalformedJsonException.class);
        for (Class<?> c : types) {
            for (Method m : c.getDeclaredMethods()) {
                if (!Modifier.isPublic(m.getModifiers())) continue;
                check(leaks, c, m.getName(), m.getGenericReturnType());
                for (Type t : m.getGenericParameterTypes()) check(leaks, c, m.getName(), t);
            }
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (!Modifier.isPublic(k.getModifiers())) continue;
                for (Type t : k.getGenericParameterTypes()) check(leaks, c, "<init>", t);
            }
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isPublic(f.getModifiers())) check(leaks, c, f.getName(), f.getGenericType());
            }
        }
        assertThat(leaks).isEmpty();
    }

    @Test
    void everyPublicTypeOfThePackageIsListedHere() throws Exception {
        // A new public type must be added above, so that the leak check covers it.
        java.nio.file.Path root = java.nio.file.Path.of(Tidemill.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> missing = new ArrayList<>();
        for (String pkg : List.of("dev.tidemill", "dev.tidemill.html", "dev.tidemill.datastar", "dev.tidemill.controller")) {
            try (var files = java.nio.file.Files.list(root.resolve(pkg.replace('.', '/')))) {
                for (java.nio.file.Path f : files.toList()) {
                    String name = f.getFileName().toString();
                    if (!name.endsWith(".class") || name.contains("$") || name.equals("package-info.class")) continue;
                    Class<?> c = Class.forName(pkg + "." + name.substring(0, name.length() - 6));
                    if (Modifier.isPublic(c.getModifiers()) && !PUBLIC_TYPES.contains(c)) missing.add(c.getName());
                }
            }
        }
        assertThat(missing).isEmpty();
    }

    @Test
    void theModuleExportsOnlyThePublicPackagesAndTheFanOutToTheRedisModule() throws Exception {
        java.nio.file.Path classes = java.nio.file.Path.of(Tidemill.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        java.lang.module.ModuleDescriptor module = java.lang.module.ModuleFinder.of(classes).findAll().iterator().next().descriptor();
        assertThat(module.name()).isEqualTo("dev.tidemill");
        assertThat(module.exports()).extracting(e -> e.source() + (e.isQualified() ? " to " + e.targets() : ""))
                // the one qualified export: the topic fan-out, to the Redis add-on that relays into it, to nothing else
                .containsExactlyInAnyOrder("dev.tidemill", "dev.tidemill.html", "dev.tidemill.datastar", "dev.tidemill.controller",
                        "dev.tidemill.internal.topic to [dev.tidemill.redis]");
        assertThat(module.opens()).isEmpty();
        assertThat(module.packages()).as("the internal packages exist, unexported").contains(
                "dev.tidemill.internal.exchange", "dev.tidemill.internal.http1", "dev.tidemill.internal.dispatch");
    }

    /** Adds {@code c} and every public type nested in it, at any depth. */
    private static void withNested(Class<?> c, List<Class<?>> out) {
        out.add(c);
        for (Class<?> n : c.getDeclaredClasses()) {
            if (Modifier.isPublic(n.getModifiers())) withNested(n, out);
        }
    }

    private static void check(List<String> leaks, Class<?> owner, String member, Type t) {
        if (t.getTypeName().contains("dev.tidemill.internal")) {
            leaks.add(owner.getSimpleName() + "." + member + " exposes " + t.getTypeName());
        }
    }
}
