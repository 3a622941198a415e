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
    /** Every constant name of the generated class so far: Param and RateLimit constants share one namespace. */
    private final Set<String> fields = new HashSet<>();

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

    /**
     * @param base the name wanted, e.g. {@code GET_ITEM_ID}
     * @return it, or it with the first free number appended: {@code getItem(id)} and {@code get(itemId)}
     *     both want {@code GET_ITEM_ID}, and {@code limit(n)} wants the {@code LIMIT_N} of {@code n}'s rate limit
     */
    String uniqueField(String base) {
        String f = base;
        for (int i = 2; !fields.add(f); i++) f = base + i;
        return f;
    }

    /** @return the name of a new RateLimit constant for {@code limited} on {@code on} */
    String rateLimit(Element on, AnnotationMirror limited, Problems problems, Annotations annotations) {
        String n = annotations.string(limited, "name");
        int requests = annotations.integer(limited, "requests");
        long seconds = annotations.longValue(limited, "perSeconds");
        if (n.isBlank()) problems.error(on, limited, "@RateLimited needs a name, for its 429 problems and its metrics");
        else if (!n.matches("[A-Za-z0-9_.:-]{1,64}")) {
            problems.error(on, limited, "@RateLimited name \"" + n + "\" is not 1 to 64 of letters, digits, '-', '_', '.' and ':' "
                    + "(it is the RateLimit-Policy header's name): rename it, e.g. \"" + n.strip().replaceAll("[^A-Za-z0-9_.:-]+", "-") + "\"");
        }
        if (requests < 1) problems.error(on, limited, "@RateLimited(requests = " + requests + ") lets nothing through: allow at least 1");
        else if (requests > 1_000_000_000) problems.error(on, limited, "@RateLimited(requests = " + requests + ") is more than 10^9: allow at most 1000000000");
        if (seconds < 1) problems.error(on, limited, "@RateLimited(perSeconds = " + seconds + ") is no period: write at least 1");
        else if (seconds > 86_400) problems.error(on, limited, "@RateLimited(perSeconds = " + seconds + ") is longer than a day: write at most 86400");
        String field = uniqueField("LIMIT_" + ParamReader.constantCase(on.getSimpleName().toString()));
        rateLimits.put(field, CodeBlock.of("$T.builder($S).requests($L).per($T.ofSeconds($LL)).build()", Names.RATE_LIMIT, n,
                requests, java.time.Duration.class, seconds));
        return field;
    }
}
