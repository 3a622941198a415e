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
 * index that was not given, named), and that a generated routes class also registers on a group.
 */
@Timeout(30)
class ControllerRegistrationTest {

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
}
