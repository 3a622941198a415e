package dev.tidemill.tests.hardening;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * The hardening suite's own bookkeeping: every table case names a source and is unique, the suite
 * keeps well over 150 cases, and README.md states its real size (cases and
 * categories), so changing one without the other fails. Prints the count per category.
 */
class HardeningCatalogTest {
    /** The table-driven categories. */
    static Stream<HostileCase> tables() {
        return Stream.of(FramingAndSmugglingTest.cases(), HeaderSyntaxTest.cases(), MalformedChunkedBodyTest.cases(),
                RequestLineAndHostTest.cases(), SizeLimitsTest.cases(), ResponseFramingTest.cases(), JsonAbuseTest.cases())
                .flatMap(s -> s);
    }

    /** Test classes whose cases are methods, with their category. */
    static final Map<Class<?>, String> METHOD_CLASSES = Map.of(
            SlowClientsTest.class, SlowClientsTest.CAT,
            PipelineFloodTest.class, PipelineFloodTest.CAT,
            ResponseFramingTest.class, ResponseFramingTest.EXPECT,
            HandlerFaultsTest.class, HandlerFaultsTest.CAT,
            OverloadTest.class, OverloadTest.CAT,
            GracefulShutdownUnderLoadTest.class, GracefulShutdownUnderLoadTest.CAT,
            CompressedBodiesTest.class, CompressedBodiesTest.CAT);

    /** The README's sentence about the suite: {@code (`tidemill-testing/.../hardening/`, 274 cases in 14 categories, ...}. */
    private static final Pattern README_COUNT = Pattern.compile("hardening/`, (\\d+) cases in (\\d+) categories");

    @Test
    void everyCaseHasASourceAndAUniqueName() {
        Set<String> names = new HashSet<>();
        for (HostileCase c : tables().toList()) {
            assertThat(c.source()).as(c.name()).isNotBlank();
            assertThat(c.bytes()).as(c.name()).isNotEmpty();
            assertThat(names.add(c.category() + "/" + c.name())).as("duplicate case %s", c.name()).isTrue();
        }
    }

    @Test
    void theSuiteHasWellOver150CasesAndAsManyAsTheReadmeSays() throws IOException {
        Map<String, Integer> perCategory = new TreeMap<>();
        tables().forEach(c -> perCategory.merge(c.category(), 1, Integer::sum));
        METHOD_CLASSES.forEach((type, category) -> perCategory.merge(category, testMethods(type), Integer::sum));
        int total = perCategory.values().stream().mapToInt(Integer::intValue).sum();
        List<String> lines = new ArrayList<>();
        perCategory.forEach((k, v) -> lines.add(String.format("  %-45s %4d", k, v)));
        System.out.println("hardening suite: " + total + " cases\n" + String.join("\n", lines));
        assertThat(total).isGreaterThan(150);

        Matcher stated = README_COUNT.matcher(Files.readString(Path.of("..", "README.md")));
        assertThat(stated.find()).as("README.md states the suite's size as \"hardening/`, N cases in M categories\"").isTrue();
        assertThat(Integer.parseInt(stated.group(1))).as("cases README.md states").isEqualTo(total);
        assertThat(Integer.parseInt(stated.group(2))).as("categories README.md states").isEqualTo(perCategory.size());
    }

    /** docs/security.md's sentence about the last differential run: {@code ...: 118 cases agree, 81 disagree}. */
    private static final Pattern SECURITY_DIFFERENTIAL = Pattern.compile("(\\d+) cases agree, (\\d+)\\s+disagree");

    /**
     * The judged nginx disagreements ({@link NginxDisagreements}, asserted by the nginx run of
     * {@link DifferentialCheck}) name real cases of categories 1-4, and docs/security.md counts them.
     */
    @Test
    void theJudgedNginxDisagreementsNameRealCasesAndDocsSecurityCountsThem() throws IOException {
        Set<String> cases = new HashSet<>();
        DifferentialCheck.cases().forEach(c -> cases.add(NginxDisagreements.key(c.category(), c.name())));
        assertThat(cases).as("every judged disagreement is a case of categories 1-4")
                .containsAll(NginxDisagreements.BY_CASE.keySet());
        Matcher stated = SECURITY_DIFFERENTIAL.matcher(Files.readString(Path.of("..", "docs", "security.md")));
        assertThat(stated.find()).as("docs/security.md states \"N cases agree, M disagree\"").isTrue();
        assertThat(Integer.parseInt(stated.group(2))).as("disagreements docs/security.md states")
                .isEqualTo(NginxDisagreements.BY_CASE.size());
        assertThat(Integer.parseInt(stated.group(1))).as("agreements docs/security.md states")
                .isEqualTo(cases.size() - NginxDisagreements.BY_CASE.size());
    }

    private static boolean hasCasesTable(Class<?> type) {
        try {
            type.getDeclaredMethod("cases");
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static int testMethods(Class<?> type) {
        int n = 0;
        for (Method m : type.getDeclaredMethods()) {
            // a table-driven class's parameterised method is counted through its rows instead
            boolean parameterised = m.isAnnotationPresent(ParameterizedTest.class) && !hasCasesTable(type);
            if (m.isAnnotationPresent(Test.class) || parameterised) n++;
        }
        return n;
    }
}
