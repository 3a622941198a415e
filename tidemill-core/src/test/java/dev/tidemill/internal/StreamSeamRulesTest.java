package dev.tidemill.internal;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.tidemill.ExecutionMode;
import dev.tidemill.internal.dispatch.WorkerLoop;
import org.junit.jupiter.api.Test;

/**
 * One way for a long-lived stream to run its callbacks and to send from other threads, read from
 * the compiled classes: an execution mode becomes a thread only in the exchange's
 * {@code Dispatcher} (requests and stream callbacks alike), and a WebSocket connection keeps no
 * queue of its own for cross-thread sends (they go through {@code StreamPort.deliver}, the
 * server's one {@code ResponseBatcher}).
 */
class StreamSeamRulesTest {
    private static final JavaClasses CORE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.tidemill");
    private static final String DISPATCHER = "dev.tidemill.internal.exchange.Dispatcher";

    @Test
    void onlyTheDispatcherHandsWorkToAWorkerLoop() {
        noClasses().that().doNotHaveFullyQualifiedName(DISPATCHER)
                .and().doNotHaveFullyQualifiedName(WorkerLoop.class.getName())
                .should().callMethod(WorkerLoop.class, "execute", Runnable.class)
                .check(CORE);
    }

    @Test
    void noProtocolChoosesAThreadByMode() {
        noClasses().that().resideInAnyPackage("dev.tidemill.internal.websocket..", "dev.tidemill.internal.http1..",
                        "dev.tidemill.internal.http2..")
                .should().dependOnClassesThat().areAssignableTo(ExecutionMode.class)
                .orShould().dependOnClassesThat().areAssignableTo(WorkerLoop.class)
                .check(CORE);
    }

    @Test
    void webSocketSendsHaveNoOutboxOfTheirOwn() {
        noClasses().that().resideInAPackage("dev.tidemill.internal.websocket..")
                .should().dependOnClassesThat().resideInAPackage("org.jctools..")
                .orShould().dependOnClassesThat().haveFullyQualifiedName("dev.tidemill.internal.dispatch.ResponseBatcher")
                .check(CORE);
    }
}
