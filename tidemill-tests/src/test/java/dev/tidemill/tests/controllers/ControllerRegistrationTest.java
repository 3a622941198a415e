package dev.tidemill.tests.controllers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tidemill.Tidemill;
import dev.tidemill.testing.TestClient;
import dev.tidemill.testing.TestResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code app.controllers(...)}: what it refuses at once (an object no index knows, naming what the
 * build lacks; a controller given twice), what it refuses at start (a controller of the module's
 * index that was not given, named), that a generated routes class also registers on a group, and
 * that an index only the controller's own class loader sees (a plugin's) is found too.
 */
@Timeout(30)
class ControllerRegistrationTest {

    /** A plugin's controller: its class and its index are loaded by the plugin's loader only. */
    public static final class PluginController {
        /** For the test's reflective construction, as a plugin host would. */
        public PluginController() {}
    }

    /** The plugin's index, written by hand here as the processor writes one (its service file is the plugin's). */
    public static final class PluginIndex implements dev.tidemill.ControllerIndex {
        /** Called by the service loader. */
        public PluginIndex() {}

        @Override
        public List<Class<?>> controllers() {
            return List.of(PluginController.class);
        }

        @Override
        public boolean register(Object controller, dev.tidemill.Routes routes) {
            if (!(controller instanceof PluginController)) return false;
            routes.get("/plugin/hello", request -> "hello from " + controller.getClass().getClassLoader().getName());
            return true;
        }
    }

    /** Not annotated, so no processor wrote routes for it. */
    public static final class Plain {}

    @Test
    void anObjectNoIndexKnowsIsRefusedNamingWhatTheBuildLacks() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        assertThatThrownBy(() -> app.controllers(new Plain()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Plain.class.getName() + " is not a controller any index knows")
                .hasMessageContaining("annotationProcessorPaths");
        assertThat(app.routes()).isEmpty();
    }

    @Test
    void aControllerGivenTwiceIsRefused() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        assertThatThrownBy(() -> app.controllers(new CatalogController(), new CatalogController()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(CatalogController.class.getName() + " was given twice");
        assertThat(app.routes()).hasSize(8); // the first one's routes, once
    }

    @Test
    void aControllerOfTheIndexThatWasNotGivenFailsTheStartNamingIt() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        app.controllers(new CatalogController());
        assertThatThrownBy(app::inMemory)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not given to app.controllers(...)")
                .hasMessageContaining(dev.tidemill.tests.noreflection.NoReflectionController.class.getName())
                .hasMessageContaining("dev.tidemill.tests.TidemillControllers")
                .hasMessageNotContaining(CatalogController.class.getName() + " (");
    }

    @Test
    void theIndexListsEveryControllerOfTheModule() {
        dev.tidemill.ControllerIndex index = java.util.ServiceLoader.load(dev.tidemill.ControllerIndex.class).stream()
                .map(java.util.ServiceLoader.Provider::get)
                .filter(i -> i.getClass().getName().equals("dev.tidemill.tests.TidemillControllers"))
                .findFirst().orElseThrow();
        assertThat(index.controllers()).contains(CatalogController.class, dev.tidemill.tests.noreflection.NoReflectionController.class);
        assertThat(index.register(new Plain(), Tidemill.create(TestClient.config().build()))).isFalse();
    }

    @Test
    void theGeneratedRoutesClassRegistersOnAGroup() {
        Tidemill app = Tidemill.create(TestClient.config().build());
        CatalogControllerRoutes.register(new CatalogController(), app.group("/v2"));
        assertThat(app.routes()).extracting(Object::toString).contains("GET /v2/catalog/products/{id}", "GET /v2/catalog/products.csv");
        try (TestClient client = TestClient.inMemory(app)) {
            TestResponse r = client.get("/v2/catalog/products/7");
            assertThat(r.status()).isEqualTo(200);
            assertThat(r.json(Catalog.Product.class)).isEqualTo(new Catalog.Product(7, "lamp", 19.5));
            assertThat(client.get("/v2/catalog/products/x").status()).isEqualTo(422);
        }
        assertThat(List.of(app.routes().size())).containsExactly(8);
    }

    @Test
    void anIndexOnlyTheControllersOwnLoaderSeesIsFoundAfterTheAppsOwn(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path services = dir.resolve("META-INF/services/dev.tidemill.ControllerIndex");
        java.nio.file.Files.createDirectories(services.getParent());
        java.nio.file.Files.writeString(services, PluginIndex.class.getName() + "\n");
        List<String> own = List.of(PluginIndex.class.getName(), PluginController.class.getName());
        try (java.net.URLClassLoader plugin = new java.net.URLClassLoader("plugin", new java.net.URL[] {dir.toUri().toURL()},
                getClass().getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                if (!own.contains(name)) return super.loadClass(name, resolve);
                synchronized (getClassLoadingLock(name)) {
                    Class<?> c = findLoadedClass(name);
                    if (c != null) return c;
                    try (java.io.InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        byte[] b = in.readAllBytes();
                        return defineClass(name, b, 0, b.length);
                    } catch (java.io.IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
            }
        }) {
            Object pluginController = plugin.loadClass(PluginController.class.getName()).getConstructor().newInstance();
            assertThat(pluginController.getClass().getClassLoader()).isSameAs(plugin);
            Tidemill app = Tidemill.create(TestClient.config().build());
            app.controllers(new CatalogController(), pluginController);
            app.controllers(OtherControllers.construct().toArray());
            assertThat(app.routes()).extracting(Object::toString).contains("GET /plugin/hello", "GET /catalog/products/{id}");
            try (TestClient client = TestClient.inMemory(app)) { // every controller of both indexes was given
                assertThat(client.get("/plugin/hello").text()).isEqualTo("hello from plugin");
                assertThat(client.get("/catalog/products/7").status()).isEqualTo(200);
            }
            Tidemill missing = Tidemill.create(TestClient.config().build());
            missing.controllers(pluginController);
            assertThat(missing.routes()).extracting(Object::toString).containsExactly("GET /plugin/hello");
            missing.inMemory().close(); // the app's own index contributed nothing, so nothing of it is missing
        }
    }
}
