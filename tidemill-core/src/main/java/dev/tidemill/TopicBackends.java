package dev.tidemill;

import java.util.ServiceLoader;

/**
 * The {@link Topic.Backend} this process uses, looked up once. A service rather than a direct call
 * into the implementation: the API names no class of it, so nothing in {@code internal} is both
 * used by {@link Topic} and a user of it, and a backend from an add-on module plugs in the same way:
 * the first enabled add-on backend wins over the in-process one.
 */
final class TopicBackends {
    private TopicBackends() {}

    /** @return the backend */
    static Topic.Backend backend() {
        return Holder.BACKEND;
    }

    /** Loaded at the first topic, not at class initialisation of the API. */
    private static final class Holder {
        static final Topic.Backend BACKEND = load();
    }

    /** The core's own backend: used unless an add-on backend is {@link Topic.Backend#enabled() enabled}. */
    private static final String IN_PROCESS = "dev.tidemill.internal.topic.LocalTopics";

    private static Topic.Backend load() {
        Module core = Topic.class.getModule();
        ServiceLoader<Topic.Backend> found = core.isNamed() && core.getLayer() != null
                ? ServiceLoader.load(core.getLayer(), Topic.Backend.class)
                : ServiceLoader.load(Topic.Backend.class, Topic.class.getClassLoader());
        Topic.Backend inProcess = null;
        for (Topic.Backend b : found) {
            if (b.getClass().getName().equals(IN_PROCESS)) {
                inProcess = b;
            } else if (b.enabled()) {
                return b; // an add-on that is configured (tidemill-redis with TIDEMILL_REDIS_URL)
            }
        }
        if (inProcess == null) {
            throw new IllegalStateException("no " + Topic.Backend.class.getName() + " service found: tidemill-core provides one in its"
                    + " module descriptor and in META-INF/services; a repackaged jar that dropped the service file loses it");
        }
        return inProcess;
    }
}
