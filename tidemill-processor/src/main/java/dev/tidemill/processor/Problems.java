package dev.tidemill.processor;

import javax.annotation.processing.Messager;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.tools.Diagnostic;

/** Compile errors, each on the element (and annotation) it is about, counted so a bad class generates nothing. */
final class Problems {
    private final Messager messager;
    private int count;

    Problems(Messager messager) {
        this.messager = messager;
    }

    void error(Element on, String message) {
        count++;
        messager.printMessage(Diagnostic.Kind.ERROR, message, on);
    }

    void error(Element on, AnnotationMirror annotation, String message) {
        count++;
        if (annotation == null) messager.printMessage(Diagnostic.Kind.ERROR, message, on);
        else messager.printMessage(Diagnostic.Kind.ERROR, message, on, annotation);
    }

    /** @return errors reported so far */
    int count() {
        return count;
    }
}
