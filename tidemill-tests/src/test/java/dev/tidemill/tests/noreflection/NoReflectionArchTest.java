package dev.tidemill.tests.noreflection;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import java.util.Set;

/**
 * No reflection on the request path, read from the compiled classes: Tidemill's own classes that
 * serve a request, the classes tidemill-processor generates for controllers, and the index lookup
 * ({@code dev.tidemill.Controllers}) use neither {@code java.lang.reflect} nor method handles, and
 * call none of {@code Class}'s member lookups. Jackson's and Hibernate Validator's own reflection is
 * theirs and is not read here. {@link NoReflectionUnderLoadTest} checks the same at run time.
 *
 * <p>VarHandles are allowed: a few hot classes (Exchange, WorkerLoop, ResponseBatcher, ReplyInbox,
 * RouteMeters, LoopWait) update a field atomically through one, found once in a static initializer
 * ({@code MethodHandles.lookup().findVarHandle}, {@code arrayElementVarHandle}); the JIT compiles
 * its use to a plain atomic instruction, with no lookup and no method handle per request.
 */
@AnalyzeClasses(packages = "dev.tidemill")
class NoReflectionArchTest {

    /** Tidemill's classes on the way of a request: the API handlers call and everything internal. */
    static final DescribedPredicate<JavaClass> REQUEST_PATH = resideInAnyPackage(
            "dev.tidemill", "dev.tidemill.internal..", "dev.tidemill.datastar..", "dev.tidemill.html..")
            .as("Tidemill's request path (dev.tidemill, dev.tidemill.internal.., datastar, html)");

    /** The packages the request path must cover at least, each non-empty (else the rule proves nothing). */
    static final List<String> NAMED = List.of("exchange", "http1", "http2", "dispatch", "routing", "codec", "multipart");

    /**
     * The only classes of the request path's packages that may reflect, each because it runs at
     * start (or once per type), never once per request. Keep this list short and say why.
     */
    static final Set<String> START_TIME = Set.of(
            // the `tidemill settings` command: reads the defaults off the config records (CLI, no server)
            "dev.tidemill.AppCommand",
            // JSON Schema from records and beans: the OpenAPI document is rendered once at start
            // (OpenApiRoutes.build) and an MCP tool's schemas when the endpoint is built (Tool.of)
            "dev.tidemill.internal.openapi.Schemas",
            // a multipart target's record components: a ClassValue, computed once per type
            "dev.tidemill.internal.multipart.FormParts$UploadComponents",
            // a constraint annotation's name (a violation's type), from its proxy class: a ClassValue, once per class
            "dev.tidemill.internal.codec.BeanValidation$AnnotationKinds");

    /** An allowed class and the classes nested in it (Schemas$Property carries a reflected Type). */
    static final DescribedPredicate<JavaClass> ALLOWED = DescribedPredicate.describe("start-time classes " + START_TIME,
            c -> START_TIME.stream().anyMatch(a -> c.getName().equals(a) || c.getName().startsWith(a + "$")));

    /** Reflection and method handles; VarHandle and the two lookups that find one are not (see above). */
    static final DescribedPredicate<JavaClass> REFLECTION = resideInAPackage("java.lang.reflect..")
            .or(resideInAPackage("java.lang.invoke..").and(not(DescribedPredicate.describe("VarHandle, MethodHandles(.Lookup)",
                    (JavaClass c) -> Set.of("java.lang.invoke.VarHandle", "java.lang.invoke.MethodHandles",
                            "java.lang.invoke.MethodHandles$Lookup").contains(c.getName())))))
            .as("java.lang.reflect.. or java.lang.invoke.. (but VarHandle)");

    /** Every class of java.lang.reflect and java.lang.invoke, VarHandle included: generated code needs none. */
    static final DescribedPredicate<JavaClass> ANY_REFLECTION =
            resideInAnyPackage("java.lang.reflect..", "java.lang.invoke..").as("java.lang.reflect.. or java.lang.invoke..");

    static final Set<String> CLASS_LOOKUPS = Set.of("getMethod", "getMethods", "getDeclaredMethod", "getDeclaredMethods",
            "getRecordComponents", "getField", "getFields", "getDeclaredField", "getDeclaredFields",
            "getConstructor", "getConstructors", "getDeclaredConstructor", "getDeclaredConstructors");

    /** A call of (or method reference to) one of Class's member lookups. */
    static final DescribedPredicate<JavaAccess<?>> CLASS_LOOKUP = DescribedPredicate.describe(
            "a Class member lookup " + CLASS_LOOKUPS, (JavaAccess<?> a) -> a.getTargetOwner().isEquivalentTo(Class.class)
                    && CLASS_LOOKUPS.contains(a.getTarget().getName()));

    /** MethodHandles and Lookup are there for VarHandles only: any other of their methods finds a method handle. */
    static final DescribedPredicate<JavaAccess<?>> METHOD_HANDLE_LOOKUP = DescribedPredicate.describe(
            "a MethodHandles method other than lookup(), findVarHandle, arrayElementVarHandle",
            (JavaAccess<?> a) -> a.getTargetOwner().getName().startsWith("java.lang.invoke.MethodHandles")
                    && !Set.of("lookup", "findVarHandle", "arrayElementVarHandle").contains(a.getTarget().getName()));

    /** What tidemill-processor writes: each controller's {@code <Name>Routes} and the module's index. */
    static final DescribedPredicate<JavaClass> GENERATED = DescribedPredicate.describe(
            "generated controller classes (*Routes with a static register, TidemillControllers) of the suite",
            (JavaClass c) -> c.getPackageName().startsWith("dev.tidemill.tests")
                    && (c.getSimpleName().equals("TidemillControllers")
                            || c.getSimpleName().endsWith("Routes") && c.getMethods().stream().anyMatch(
                                    m -> m.getName().equals("register") && m.getModifiers().contains(JavaModifier.STATIC))));

    // (a)
    @ArchTest
    static void requestPathReflectsNot(JavaClasses classes) {
        for (String p : NAMED) {
            assertThat(classes.that(resideInAPackage("dev.tidemill.internal." + p))).as("classes in internal." + p).isNotEmpty();
        }
        noClasses().that(REQUEST_PATH).and(not(ALLOWED))
                .should().dependOnClassesThat(REFLECTION)
                .orShould().accessTargetWhere(CLASS_LOOKUP)
                .orShould().accessTargetWhere(METHOD_HANDLE_LOOKUP)
                .because("a request runs no reflection of ours: what is reflective is computed at start or once per type")
                .check(classes);
    }

    // (a), the other side: each allowed class exists, so the list does not rot into a blanket pass
    @ArchTest
    static void everyStartTimeClassExists(JavaClasses classes) {
        for (String name : START_TIME) assertThat(classes.contain(name)).as(name).isTrue();
    }

    // (b)
    @ArchTest
    static void generatedControllerCodeReflectsNot(JavaClasses classes) {
        JavaClasses generated = classes.that(GENERATED);
        assertThat(generated.stream().map(JavaClass::getSimpleName))
                .as("the processor's output for this suite")
                .contains("NoReflectionControllerRoutes", "TidemillControllers");
        noReflectionAtAll(GENERATED).check(classes);
    }

    // (c)
    @ArchTest
    static final ArchRule CONTROLLER_LOOKUP_REFLECTS_NOT = noReflectionAtAll(
            DescribedPredicate.describe("dev.tidemill.Controllers", (JavaClass c) -> c.getName().equals("dev.tidemill.Controllers")))
            .because("the indexes are found with java.util.ServiceLoader and register routes by plain calls");

    private static ArchRule noReflectionAtAll(DescribedPredicate<JavaClass> which) {
        return noClasses().that(which)
                .should().dependOnClassesThat(ANY_REFLECTION)
                .orShould().accessTargetWhere(CLASS_LOOKUP);
    }
}
