package dev.tidemill.tests.controllers;

import java.util.List;

/**
 * One of each controller of the tests module besides the catalog: the module has one index, and an
 * app given one of its controllers must be given all of them (ControllerRegistrationTest).
 */
final class OtherControllers {
    private OtherControllers() {}

    static List<Object> construct() {
        return List.of(new dev.tidemill.tests.noreflection.NoReflectionController());
    }

    /** Registers the same controllers through their generated routes classes, bypassing the index. */
    static void registerDirectly(dev.tidemill.Routes app) {
        dev.tidemill.tests.noreflection.NoReflectionControllerRoutes.register(new dev.tidemill.tests.noreflection.NoReflectionController(), app);
    }
}
