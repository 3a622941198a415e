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
