package dev.tidemill.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A horizontal bar chart of median req/s per scenario and target, with the ratio to the baseline
 * written next to each bar. Hand-written SVG: a few rects and texts need no library.
 */
public final class SvgChart {
    private static final int BAR = 18;
    private static final int GAP = 4;
    private static final int LABEL = 170;
    private static final int WIDTH = 760;
    private static final int PLOT = WIDTH - LABEL - 150;

    private SvgChart() {}

    /**
     * @param rows the summary
     * @param title the chart's title
     * @return the SVG document
     */
    public static String of(List<SummaryRow> rows, String title) {
        Map<String, List<SummaryRow>> byScenario = new LinkedHashMap<>();
        for (SummaryRow r : rows) byScenario.computeIfAbsent(r.scenario(), k -> new ArrayList<>()).add(r);
        int height = 40 + byScenario.size() * 28 + rows.size() * (BAR + GAP) + 20;
        StringBuilder b = new StringBuilder();
        b.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" font-family=\"sans-serif\" font-size=\"12\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n")
                .append("<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">").append(esc(title)).append("</text>\n");
        int y = 40;
        for (Map.Entry<String, List<SummaryRow>> e : byScenario.entrySet()) {
            double max = e.getValue().stream().mapToDouble(SummaryRow::medianRps).filter(d -> !Double.isNaN(d)).max().orElse(1);
            y += 18;
            b.append("<text x=\"10\" y=\"").append(y).append("\" font-weight=\"bold\">").append(esc(e.getKey())).append("</text>\n");
            y += 8;
            for (SummaryRow r : e.getValue()) {
                double w = Double.isNaN(r.medianRps()) || max <= 0 ? 0 : PLOT * r.medianRps() / max;
                String fill = r.target().equals(TargetCatalog.BASELINE) ? "#888888" : r.target().startsWith("tidemill") ? "#1f6fb2" : "#d08a2b";
                b.append("<text x=\"").append(LABEL - 6).append("\" y=\"").append(y + 13).append("\" text-anchor=\"end\">")
                        .append(esc(r.target())).append("</text>\n");
                b.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"/>%n",
                        LABEL, y, w, BAR, fill));
                String ratio = r.ratio() == null ? "no ratio" : String.format(Locale.ROOT, "%.2fx%s", r.ratio(),
                        r.ratioBasis().equals(Summary.BASIS_CPU) ? " (CPU/req)" : "");
                b.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%,.0f req/s  %s</text>%n",
                        LABEL + w + 6, y + 13, r.medianRps(), esc(ratio)));
                y += BAR + GAP;
            }
        }
        return b.append("</svg>\n").toString();
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
