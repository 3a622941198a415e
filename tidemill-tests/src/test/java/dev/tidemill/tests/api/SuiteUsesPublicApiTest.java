package dev.tidemill.tests.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The integration suite uses only what an application can: this module has no module descriptor,
 * so its sources compile on the class path, where {@code dev.tidemill.internal} is as visible as
 * the API. Read from the compiled classes (a fully qualified name counts as much as an import), no
 * class of the suite names an internal type; server state is read through
 * {@code Server.diagnostics()}.
 */
class SuiteUsesPublicApiTest {

    @Test
    void noSuiteClassNamesAnInternalType() {
        JavaClasses suite = new ClassFileImporter().importPackages("dev.tidemill.tests");
        assertThat(suite.size()).as("classes of the suite imported").isGreaterThan(100);
        noClasses().should().dependOnClassesThat().resideInAPackage("dev.tidemill.internal..").check(suite);
    }
}
