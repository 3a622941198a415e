package dev.tidemill.internal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The shape of the implementation, read from the compiled classes (so a fully qualified name in
 * code counts as much as an import): no internal package uses one that uses it back, directly or
 * through others, and the exchange package, which every protocol carries, knows none of them.
 * Protocol choice lives in {@code internal.protocol}, which only the server's assembly uses.
 */
class PackageDependenciesTest {
    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.tidemill");

    /** The packages that each speak a protocol, or choose one. */
    private static final String[] PROTOCOLS = {
        "dev.tidemill.internal.http1..", "dev.tidemill.internal.http2..", "dev.tidemill.internal.websocket..",
        "dev.tidemill.internal.tls..", "dev.tidemill.internal.protocol..",
    };

    @Test
    void noInternalPackageUsesOneThatUsesItBack() {
        slices().matching("dev.tidemill.internal.(*)..").should().beFreeOfCycles().check(CORE);
    }

    @Test
    void theExchangeKnowsNoProtocol() {
        noClasses().that().resideInAPackage("dev.tidemill.internal.exchange..")
                .should().dependOnClassesThat().resideInAnyPackage(PROTOCOLS)
                .orShould().dependOnClassesThat().resideInAnyPackage("dev.tidemill.internal.server..",
                        "dev.tidemill.internal.inmemory..")
                .check(CORE);
    }

    @Test
    void publicResponsesAndDatastarDescribeWhatTheExchangeDoes() {
        // Response describes a body (an event stream, a topic's events) and the exchange acts on it; Datastar reads
        // the app's codec from the Request, never by casting it to the server's own class.
        noClasses().that().resideInAPackage("dev.tidemill.datastar..")
                .or().haveFullyQualifiedName("dev.tidemill.Response")
                .should().dependOnClassesThat().resideInAnyPackage("dev.tidemill.internal.exchange..", "dev.tidemill.internal.topic..")
                .check(CORE);
    }

    @Test
    void noApiTypeCallsAnImplementationThatUsesItBack() {
        // The API describes (a body, a file sink, a topic backend) and the implementation acts on it: a type of the
        // API and an internal type that each use the other would be one design split across two files. A type
        // counts with the types nested in it.
        java.util.List<String> circles = new java.util.ArrayList<>();
        for (com.tngtech.archunit.core.domain.JavaClass api : CORE) {
            if (api.getPackageName().startsWith("dev.tidemill.internal") || api.getEnclosingClass().isPresent()) continue;
            java.util.Set<String> apiFamily = family(api);
            java.util.Set<String> seen = new java.util.TreeSet<>();
            for (String member : apiFamily) {
                for (com.tngtech.archunit.core.domain.Dependency d : CORE.get(member).getDirectDependenciesFromSelf()) {
                    com.tngtech.archunit.core.domain.JavaClass target = outermost(d.getTargetClass());
                    if (!target.getPackageName().startsWith("dev.tidemill.internal") || !seen.add(target.getName())) continue;
                    for (String implMember : family(target)) {
                        boolean back = CORE.get(implMember).getDirectDependenciesFromSelf().stream()
                                .anyMatch(b -> apiFamily.contains(b.getTargetClass().getName()));
                        if (back) {
                            circles.add(api.getSimpleName() + " <-> " + target.getName());
                            break;
                        }
                    }
                }
            }
        }
        org.assertj.core.api.Assertions.assertThat(circles).isEmpty();
    }

    private static com.tngtech.archunit.core.domain.JavaClass outermost(com.tngtech.archunit.core.domain.JavaClass c) {
        while (c.getEnclosingClass().isPresent()) c = c.getEnclosingClass().get();
        return c;
    }

    /** @return the class and every class nested in it, at any depth (anonymous and local ones included) */
    private static java.util.Set<String> family(com.tngtech.archunit.core.domain.JavaClass top) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (com.tngtech.archunit.core.domain.JavaClass c : CORE) {
            if (CORE.contain(c.getName()) && outermost(c).getName().equals(top.getName())) names.add(c.getName());
        }
        return names;
    }

    @Test
    void protocolsKnowOnlyTheExchangeNotEachOther() {
        String[][] pairs = {
            {"dev.tidemill.internal.http1..", "dev.tidemill.internal.http2.."},
            {"dev.tidemill.internal.http1..", "dev.tidemill.internal.websocket.."},
            {"dev.tidemill.internal.http2..", "dev.tidemill.internal.http1.."},
            {"dev.tidemill.internal.http2..", "dev.tidemill.internal.websocket.."},
            {"dev.tidemill.internal.websocket..", "dev.tidemill.internal.http1.."},
            {"dev.tidemill.internal.websocket..", "dev.tidemill.internal.http2.."},
            {"dev.tidemill.internal.tls..", "dev.tidemill.internal.http1.."},
            {"dev.tidemill.internal.tls..", "dev.tidemill.internal.http2.."},
        };
        for (String[] p : pairs) {
            noClasses().that().resideInAPackage(p[0]).should().dependOnClassesThat().resideInAPackage(p[1]).check(CORE);
        }
    }
}
