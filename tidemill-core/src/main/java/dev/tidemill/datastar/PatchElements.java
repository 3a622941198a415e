package dev.tidemill.datastar;

import dev.tidemill.SseEvent;
import java.time.Duration;
import java.util.Objects;

/**
 * Patches elements into the page: {@code datastar-patch-elements} in 1.0,
 * {@code datastar-merge-fragments} (or {@code datastar-remove-fragments} for
 * {@link PatchMode#REMOVE}) before it. Made by {@link Datastar#patchElements} and
 * {@link Datastar#removeElements}; immutable. Lines that carry a default (mode outer, namespace
 * html, no view transition) are not sent, as the SDK does.
 */
public final class PatchElements implements DatastarEvent {
    private final Dialect dialect;
    private final String elements;
    private final String selector;
    private final PatchMode mode;
    private final Namespace namespace;
    private final boolean viewTransition;
    private final EventOptions options;

    PatchElements(Dialect dialect, String elements, String selector, PatchMode mode, Namespace namespace,
            boolean viewTransition, EventOptions options) {
        this.dialect = dialect;
        this.elements = elements;
        this.selector = selector;
        this.mode = mode;
        this.namespace = namespace;
        this.viewTransition = viewTransition;
        this.options = options;
    }

    /**
     * @param selector a CSS selector for the target; without one, each top-level element's
     *     {@code id} names its target. One line, not empty.
     * @return a copy with the selector
     */
    public PatchElements selector(String selector) {
        Objects.requireNonNull(selector, "selector");
        if (selector.isBlank()) throw new IllegalArgumentException("a Datastar selector is not blank");
        DataLines.oneLine("selector", selector);
        return new PatchElements(dialect, elements, selector, mode, namespace, viewTransition, options);
    }

    /** @param mode how the elements go in; default {@link PatchMode#OUTER} @return a copy with the mode */
    public PatchElements mode(PatchMode mode) {
        return new PatchElements(dialect, elements, selector, Objects.requireNonNull(mode, "mode"), namespace,
                viewTransition, options);
    }

    /**
     * @param namespace what the elements are parsed as; default {@link Namespace#HTML}
     * @return a copy with the namespace
     * @throws UnsupportedOperationException in {@link Dialect#PRE_1_0} for anything but HTML
     */
    public PatchElements namespace(Namespace namespace) {
        Objects.requireNonNull(namespace, "namespace");
        if (dialect == Dialect.PRE_1_0 && namespace != Namespace.HTML) {
            throw new UnsupportedOperationException("the pre-1.0 Datastar client (1.0.0-beta.11) has no namespace: it parses "
                    + "fragments as HTML in a <template>; send the whole <svg> or <math> element instead");
        }
        return new PatchElements(dialect, elements, selector, mode, namespace, viewTransition, options);
    }

    /** @param use whether the client patches inside a View Transition; default false @return a copy */
    public PatchElements useViewTransition(boolean use) {
        return new PatchElements(dialect, elements, selector, mode, namespace, use, options);
    }

    /** @param id the SSE event id (not empty, one line) @return a copy with it */
    public PatchElements id(String id) {
        return new PatchElements(dialect, elements, selector, mode, namespace, viewTransition, options.withId(id));
    }

    /** @param retry the SSE reconnection delay; the default 1,000 ms is not sent @return a copy with it */
    public PatchElements retry(Duration retry) {
        return new PatchElements(dialect, elements, selector, mode, namespace, viewTransition, options.withRetry(retry));
    }

    @Override
    public Dialect dialect() {
        return dialect;
    }

    @Override
    public SseEvent sse() {
        boolean removeBySelector = mode == PatchMode.REMOVE && selector != null;
        if (!removeBySelector && elements.isBlank()) {
            throw new IllegalArgumentException("Datastar patch-elements needs elements (not blank), unless it removes by selector");
        }
        DataLines d = new DataLines();
        if (dialect == Dialect.V1_0) {
            if (selector != null) d.line("selector", selector);
            if (mode != PatchMode.OUTER) d.line("mode", mode.v1);
            if (namespace != Namespace.HTML) d.line("namespace", namespace.wire);
            if (viewTransition) d.line("useViewTransition", "true");
            if (!removeBySelector || !elements.isBlank()) d.lines("elements", elements);
            return d.event("datastar-patch-elements", options.id(), options.retry());
        }
        if (mode == PatchMode.REMOVE) {
            // beta.11 removes by selector only (plugins/official/backend/watchers/removeFragments.js:
            // it reads `selector` and `useViewTransition`, nothing else).
            if (selector == null) {
                throw new IllegalArgumentException("the pre-1.0 Datastar client removes by selector only: set selector(...)");
            }
            d.line("selector", selector);
            if (viewTransition) d.line("useViewTransition", "true");
            return d.event("datastar-remove-fragments", options.id(), options.retry());
        }
        // beta.11 reads `selector` (default ''), `mergeMode` (default morph), `useViewTransition`
        // (default false) and `fragments` (watchers/mergeFragments.js line 51): defaults are left out.
        if (selector != null) d.line("selector", selector);
        if (mode != PatchMode.OUTER) d.line("mergeMode", mode.pre1);
        if (viewTransition) d.line("useViewTransition", "true");
        d.lines("fragments", elements);
        return d.event("datastar-merge-fragments", options.id(), options.retry());
    }

    @Override
    public String toString() {
        return sse().encode();
    }
}
