/**
 * Tidemill's annotation processor: {@code @Controller} classes become generated route classes and
 * one index per module (docs/controllers.md). Used at compile time only, from the build's
 * annotation processor path; nothing of it is needed at run time.
 */
module dev.tidemill.processor {
    requires java.compiler;
    requires com.palantir.javapoet;

    exports dev.tidemill.processor;

    provides javax.annotation.processing.Processor with dev.tidemill.processor.ControllerProcessor;
}
