package dev.tidemill;

/**
 * One readiness check, registered with {@link Tidemill#readiness(String, ReadinessCheck)}: can
 * this instance serve traffic now (its database reachable, its caches warm)? {@code /readyz} runs
 * every check on each request, each on its own virtual thread within
 * {@link Operations#readinessTimeout()}; a check that throws or does not answer in time counts as
 * unhealthy. Keep it quick and side-effect free: a probe calls it every few seconds.
 */
@FunctionalInterface
public interface ReadinessCheck {

    /** @return whether the checked dependency is usable, with a short detail */
    Health check();
}
