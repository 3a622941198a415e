package dev.tidemill.testing;

import dev.tidemill.Config;
import dev.tidemill.InMemoryServer;
import dev.tidemill.Server;
import dev.tidemill.Tidemill;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * The extension behind {@link TidemillTest}: before a class's first test it builds the app from
 * the class's {@link TidemillApp} method and starts it, keeping the {@link TestClient} in the
 * class's extension store, which closes it (stopping the server) after the class's last test.
 * Resolves parameters of type {@link TestClient}, {@link Server} and {@link InMemoryServer}.
 */
public final class TidemillExtension implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(TidemillExtension.class);
    private static final String CLIENT = "client";

    /** Made by JUnit, through {@link TidemillTest}. */
    public TidemillExtension() {}

    @Override
    public void beforeAll(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        Optional<Method> factory = appMethod(testClass);
        if (factory.isEmpty()) {
            if (inherited(context).isPresent()) return; // a @Nested class: the enclosing class's app serves it
            throw new ExtensionConfigurationException("@TidemillTest class " + testClass.getName()
                    + " needs a static method annotated @TidemillApp that returns the Tidemill app to test "
                    + "(taking nothing or a Config.Builder)");
        }
        boolean inMemory = annotation(context).map(TidemillTest::inMemory).orElse(false);
        Tidemill app = build(factory.get());
        TestClient client = inMemory ? TestClient.inMemory(app) : TestClient.start(app);
        context.getStore(NAMESPACE).put(CLIENT, client); // closed with the class's store: the server stops
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == TestClient.class || type == Server.class || type == InMemoryServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        TestClient client = inherited(context).orElseThrow(() -> new ParameterResolutionException(
                "no Tidemill app is running for " + parameter.getDeclaringExecutable()
                        + ": is the class annotated @TidemillTest, and is the parameter on a test, a lifecycle method "
                        + "or the constructor of that class?"));
        Class<?> type = parameter.getParameter().getType();
        if (type == TestClient.class) return client;
        if (type == Server.class) {
            if (client.isInMemory()) {
                throw new ParameterResolutionException("this class serves its app in memory (@TidemillTest(inMemory = true)): "
                        + "ask for an InMemoryServer, not a Server");
            }
            return client.server();
        }
        if (!client.isInMemory()) {
            throw new ParameterResolutionException("this class serves its app on a socket: ask for a Server, "
                    + "or use @TidemillTest(inMemory = true) for an InMemoryServer");
        }
        return client.inMemoryServer();
    }

    /** The client of this class or of the nearest enclosing class that started one. */
    private static Optional<TestClient> inherited(ExtensionContext context) {
        return Optional.ofNullable(context.getStore(NAMESPACE).get(CLIENT, TestClient.class));
    }

    private static Optional<TidemillTest> annotation(ExtensionContext context) {
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            Optional<Class<?>> type = c.get().getTestClass();
            if (type.isEmpty()) continue;
            for (Class<?> t = type.get(); t != null; t = t.getEnclosingClass()) {
                TidemillTest a = t.getAnnotation(TidemillTest.class);
                if (a != null) return Optional.of(a);
            }
        }
        return Optional.empty();
    }

    /** The one {@link TidemillApp} method of the class or its superclasses (the nearest wins). */
    static Optional<Method> appMethod(Class<?> testClass) {
        for (Class<?> c = testClass; c != null && c != Object.class; c = c.getSuperclass()) {
            List<Method> found = new ArrayList<>();
            for (Method m : c.getDeclaredMethods()) {
                if (m.isAnnotationPresent(TidemillApp.class)) found.add(m);
            }
            if (found.size() > 1) {
                throw new ExtensionConfigurationException(c.getName() + " has " + found.size()
                        + " methods annotated @TidemillApp; one builds the app: " + found);
            }
            if (found.size() == 1) return Optional.of(check(found.get(0)));
        }
        return Optional.empty();
    }

    private static Method check(Method m) {
        String where = "@TidemillApp method " + m.getDeclaringClass().getSimpleName() + "." + m.getName();
        if (!Modifier.isStatic(m.getModifiers())) {
            throw new ExtensionConfigurationException(where + " must be static: the app is built once for the whole class");
        }
        if (m.getReturnType() != Tidemill.class) {
            throw new ExtensionConfigurationException(where + " must return a Tidemill app, not " + m.getReturnType().getName());
        }
        Class<?>[] params = m.getParameterTypes();
        if (params.length > 1 || params.length == 1 && params[0] != Config.Builder.class) {
            throw new ExtensionConfigurationException(where + " must take nothing or one Config.Builder");
        }
        return m;
    }

    private static Tidemill build(Method m) {
        try {
            m.setAccessible(true); // test classes and their methods are usually package-private
            Object app = m.getParameterCount() == 0 ? m.invoke(null) : m.invoke(null, TestClient.config());
            if (app == null) {
                throw new ExtensionConfigurationException("@TidemillApp method " + m.getName() + " returned null");
            }
            return (Tidemill) app;
        } catch (IllegalAccessException e) {
            throw new ExtensionConfigurationException("cannot call @TidemillApp method " + m + ": " + e.getMessage(), e);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw new ExtensionConfigurationException("@TidemillApp method " + m.getName() + " failed: " + cause, cause);
        }
    }
}
