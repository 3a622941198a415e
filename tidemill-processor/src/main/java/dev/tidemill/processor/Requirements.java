package dev.tidemill.processor;

import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.List;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;

/** {@code @Requires} and {@code @Anonymous} as the {@code Requirement} expression the route is given. */
final class Requirements {
    private Requirements() {}

    static CodeBlock code(AnnotationMirror requires, AnnotationMirror anonymous, Annotations annotations, Problems problems, Element on) {
        if (anonymous != null) {
            return CodeBlock.of("$T.$L()", Names.REQUIREMENT, annotations.bool(anonymous, "identify") ? "anyone" : "anonymous");
        }
        List<CodeBlock> parts = new ArrayList<>();
        for (String s : annotations.strings(requires, "scopes")) {
            if (s.isBlank()) {
                problems.error(on, requires, "a scope in @Requires is blank: name it, or remove it");
            } else if (!s.chars().allMatch(c -> c == 0x21 || (c >= 0x23 && c <= 0x5B) || (c >= 0x5D && c <= 0x7E))) {
                problems.error(on, requires, "scope \"" + s + "\" in @Requires is not one scope token (RFC 6749 3.3: visible ASCII "
                        + "but '\"' and '\\', no spaces): a caller granted several scopes needs each; list them apart, scopes = {\"a\", \"b\"}");
            }
            parts.add(CodeBlock.of("$T.scope($S)", Names.REQUIREMENT, s));
        }
        for (String s : annotations.strings(requires, "roles")) {
            if (s.isBlank()) problems.error(on, requires, "a role in @Requires is blank: name it, or remove it");
            parts.add(CodeBlock.of("$T.role($S)", Names.REQUIREMENT, s));
        }
        if (parts.isEmpty()) return CodeBlock.of("$T.authenticated()", Names.REQUIREMENT);
        if (parts.size() == 1) return parts.get(0);
        return CodeBlock.of("$T.allOf($L)", Names.REQUIREMENT, CodeBlock.join(parts, ", "));
    }
}
