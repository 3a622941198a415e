package dev.tidemill.bench.html;

import dev.tidemill.bench.common.PageData;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One way of rendering the benchmark page ({@link PageData}) to UTF-8 bytes. Made once (templates
 * compiled, builders set up), then asked for the page any number of times; every call builds the
 * page anew from the title and rows it is given.
 */
public interface Engine {
    /**
     * @param title the page title
     * @param rows the table rows
     * @return the page, as UTF-8 bytes
     */
    byte[] render(String title, List<PageData.Row> rows);

    /** The engines, by the name the benchmark's {@code engine} parameter and the report use, in report order. */
    Map<String, Supplier<Engine>> ALL = all();

    private static Map<String, Supplier<Engine>> all() {
        Map<String, Supplier<Engine>> m = new LinkedHashMap<>();
        m.put("tidemill-builder", TidemillBuilder::new);
        m.put("tidemill-baked", TidemillBaked::new);
        m.put("stringbuilder", StringBuilderPage::new);
        m.put("jte", JtePage::new);
        m.put("j2html", J2htmlPage::new);
        m.put("mustache", MustachePage::new);
        m.put("pebble", PebblePage::new);
        m.put("freemarker", FreemarkerPage::new);
        m.put("thymeleaf", ThymeleafPage::new);
        m.put("rocker", RockerPage::new);
        m.put("htmlflow", HtmlFlowPage::new);
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * @param name an engine's name, a key of {@link #ALL}
     * @return a new engine of that name
     * @throws IllegalArgumentException for an unknown name
     */
    static Engine named(String name) {
        Supplier<Engine> s = ALL.get(name);
        if (s == null) throw new IllegalArgumentException("no engine " + name + "; engines: " + String.join(", ", ALL.keySet()));
        return s.get();
    }
}
