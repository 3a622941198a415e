package dev.tidemill.processor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.AnnotationValue;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.element.VariableElement;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;

/**
 * Reads Tidemill's annotations as mirrors, by name: their classes are not on the processor's path,
 * and a mirror is what points a compile error at the annotation itself.
 */
final class Annotations {
    /** The "no default" text of {@code defaultValue()} attributes (dev.tidemill.controller.Unset). */
    static final String UNSET = "\u0000";

    private final Elements elements;

    Annotations(Elements elements) {
        this.elements = elements;
    }

    /** @return the annotation of that qualified name on the element, or null */
    static AnnotationMirror find(Element e, String name) {
        for (AnnotationMirror m : e.getAnnotationMirrors()) {
            if (((TypeElement) m.getAnnotationType().asElement()).getQualifiedName().contentEquals(name)) return m;
        }
        return null;
    }

    /** @return the annotations of the element that are Tidemill's, by qualified name */
    static List<String> tidemillOn(Element e) {
        List<String> out = new ArrayList<>();
        for (AnnotationMirror m : e.getAnnotationMirrors()) {
            String n = ((TypeElement) m.getAnnotationType().asElement()).getQualifiedName().toString();
            if (n.startsWith(Names.ANNOTATIONS)) out.add(n);
        }
        return out;
    }

    AnnotationValue value(AnnotationMirror m, String attribute) {
        for (Map.Entry<? extends ExecutableElement, ? extends AnnotationValue> e : elements.getElementValuesWithDefaults(m).entrySet()) {
            if (e.getKey().getSimpleName().contentEquals(attribute)) return e.getValue();
        }
        throw new IllegalArgumentException("no attribute " + attribute + " in " + m);
    }

    String string(AnnotationMirror m, String attribute) {
        return (String) value(m, attribute).getValue();
    }

    int integer(AnnotationMirror m, String attribute) {
        return ((Number) value(m, attribute).getValue()).intValue();
    }

    long longValue(AnnotationMirror m, String attribute) {
        return ((Number) value(m, attribute).getValue()).longValue();
    }

    boolean bool(AnnotationMirror m, String attribute) {
        return (Boolean) value(m, attribute).getValue();
    }

    TypeMirror type(AnnotationMirror m, String attribute) {
        return (TypeMirror) value(m, attribute).getValue();
    }

    /** @return an enum attribute's constant name */
    String constant(AnnotationMirror m, String attribute) {
        return ((VariableElement) value(m, attribute).getValue()).getSimpleName().toString();
    }

    List<String> strings(AnnotationMirror m, String attribute) {
        List<String> out = new ArrayList<>();
        @SuppressWarnings("unchecked")
        List<? extends AnnotationValue> values = (List<? extends AnnotationValue>) value(m, attribute).getValue();
        for (AnnotationValue v : values) out.add((String) v.getValue());
        return out;
    }
}
