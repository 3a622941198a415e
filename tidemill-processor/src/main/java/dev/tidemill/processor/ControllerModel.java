package dev.tidemill.processor;

import com.palantir.javapoet.ClassName;
import com.palantir.javapoet.CodeBlock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.lang.model.element.AnnotationMirror;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/** A controller class: what it says for all its routes, and the routes. */
final class ControllerModel {
    final TypeElement type;
    final ClassName name;
    /** The generated class, {@code <Outer>_<Name>Routes} in the controller's package. */
    final ClassName routesName;
    String prefix = "";
    String mode;
    AnnotationMirror modeMirror;
    CodeBlock requirement;
    boolean identifies;
    String classRateLimit;
    final List<String> tags = new ArrayList<>();
    final List<RouteModel> routes = new ArrayList<>();
    /** RateLimit constants of the generated class: field name to initializer. */
    final Map<String, CodeBlock> rateLimits = new LinkedHashMap<>();
    private final Set<String> fieldPrefixes = new HashSet<>();

    ControllerModel(TypeElement type) {
        this.type = type;
        this.name = ClassName.get(type);
        this.routesName = routesClass(name);
    }

    static ClassName routesClass(ClassName controller) {
        return ClassName.get(controller.packageName(), String.join("_", controller.simpleNames()) + "Routes");
    }

    /** @return a prefix for a method's Param constants, made unique among overloads */
    String uniqueFieldPrefix(String base) {
        String p = base;
        for (int i = 2; !fieldPrefixes.add(p); i++) p = base + i;
        return p;
    }

    /** @return the name of a new RateLimit constant for {@code limited} on {@code on} */
    String rateLimit(Element on, AnnotationMirror limited, Problems problems, Annotations annotations) {
        String n = annotations.string(limited, "name");
        int requests = annotations.integer(limited, "requests");
        long seconds = annotations.longValue(limited, "perSeconds");
        if (n.isBlank()) problems.error(on, limited, "@RateLimited needs a name, for its 429 problems and its metrics");
        if (requests < 1) problems.error(on, limited, "@RateLimited(requests = " + requests + ") lets nothing through: allow at least 1");
        if (seconds < 1) problems.error(on, limited, "@RateLimited(perSeconds = " + seconds + ") is no period: write at least 1");
        String field = "LIMIT_" + ParamReader.constantCase(on.getSimpleName().toString());
        for (int i = 2; rateLimits.containsKey(field); i++) field = "LIMIT_" + ParamReader.constantCase(on.getSimpleName().toString()) + i;
        rateLimits.put(field, CodeBlock.of("$T.builder($S).requests($L).per($T.ofSeconds($LL)).build()", Names.RATE_LIMIT, n,
                requests, java.time.Duration.class, seconds));
        return field;
    }
}
