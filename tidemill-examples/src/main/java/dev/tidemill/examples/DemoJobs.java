package dev.tidemill.examples;

import dev.tidemill.ConsumerGroup;
import dev.tidemill.ExecutionMode;
import dev.tidemill.Param;
import dev.tidemill.Problem;
import dev.tidemill.Response;
import dev.tidemill.Tidemill;
import dev.tidemill.Topic;
import io.lettuce.core.api.sync.RedisCommands;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The demo's job queue, on a consumer group: {@code POST /jobs} with {@code {"id": "..."}} records
 * the job and publishes it to the topic {@value #TOPIC} (202; the same id again answers 200 with the
 * job as it is, and publishes nothing); a consumer on every node takes each job once, at least once
 * (a job whose node dies is taken by another after {@link #CLAIM_AFTER}), records the node and the
 * delivery count, works {@code workMs} (default {@value #DEFAULT_WORK_MS}) and marks it done.
 * {@code GET /jobs/{id}} answers {@code {"id", "state", "deliveries", "node"}} on any node. A job whose
 * id starts with {@code fail} fails every delivery, to show the dead letters: after
 * {@link ConsumerGroup#DEFAULT_MAX_DELIVERIES} it is {@code failed}.
 *
 * <p>With {@code TIDEMILL_REDIS_URL} the records are Redis hashes ({@value #KEY_PREFIX}{@code <id>})
 * and the queue a stream consumer group; without it both live in this process.
 */
final class DemoJobs {
    static final String TOPIC = "demo.jobs";
    static final String GROUP = "demo-jobs";
    static final String KEY_PREFIX = "tidemill:demo:job:";
    /** How long a job may stay unfinished on a node before another node takes it: short, so a killed node's jobs move on soon. */
    static final Duration CLAIM_AFTER = Duration.ofSeconds(5);
    static final int DEFAULT_WORK_MS = 200;
    static final Param<String> ID = Param.path("id");

    /** What {@code POST /jobs} takes. */
    public record NewJob(@NotBlank @Pattern(regexp = "[A-Za-z0-9._:-]{1,128}", message = "1-128 letters, digits or . _ : -") String id,
                         @Min(0) @Max(10_000) Integer workMs) {}

    /** A job as {@code GET /jobs/{id}} shows it; {@code node} is null until a node takes it. */
    public record Job(String id, String state, int deliveries, String node) {}

    /** Where job records live. */
    interface Book {
        /** @return true if the job is new (recorded as pending), false if a job with that id exists */
        boolean create(String id, int workMs);

        Optional<Job> find(String id);

        /** @return the job's work in ms; records the delivery */
        int delivered(String id, String node, int delivery);

        void state(String id, String state);
    }

    private DemoJobs() {}

    static void register(Tidemill app, Optional<DemoCluster> cluster) {
        Book book = cluster.<Book>map(c -> new RedisBook(c.connection().sync())).orElseGet(MemoryBook::new);
        Topic<String> jobs = topic();
        String node = ConsumerGroup.defaultConsumer(app.config().port());
        app.post("/jobs", req -> {
            NewJob job = req.body(NewJob.class);
            int work = job.workMs() == null ? DEFAULT_WORK_MS : job.workMs();
            if (!book.create(job.id(), work)) return Response.ok().json(book.find(job.id()).orElseThrow());
            try {
                jobs.publish("job", job.id());
            } catch (RuntimeException e) {
                book.state(job.id(), "unqueued"); // a later POST of the id tries again
                throw e;
            }
            return Response.status(202).header("Location", "/jobs/" + job.id()).json(book.find(job.id()).orElseThrow());
        }).body(NewJob.class).returns(202, Job.class).mode(ExecutionMode.VIRTUAL).summary("Queue a job").tags("jobs");
        app.get("/jobs/{id}", req -> book.find(req.param(ID)).filter(j -> !j.state().equals("unqueued"))
                        .orElseThrow(() -> Problem.of(404, "Not Found", "no job " + req.param(ID)).toException()))
                .params(ID).returns(Job.class).mode(ExecutionMode.VIRTUAL).summary("A job's state, on any node").tags("jobs");
        app.consume(jobs, ConsumerGroup.builder(GROUP).claimAfter(CLAIM_AFTER).build(), (message, delivery) -> {
            String id = message.value();
            Job before = book.find(id).orElse(null);
            if (before != null && before.state().equals("done")) return; // delivered again after it was done: at least once
            int work = book.delivered(id, node, delivery);
            if (id.startsWith("fail")) {
                if (delivery >= ConsumerGroup.DEFAULT_MAX_DELIVERIES) book.state(id, "failed");
                throw new IllegalStateException("job " + id + " fails on purpose (its id starts with 'fail')");
            }
            Thread.sleep(work);
            book.state(id, "done");
        }).mode(ExecutionMode.VIRTUAL);
    }

    @SuppressWarnings("unchecked")
    private static Topic<String> topic() {
        synchronized (DemoJobs.class) {
            return (Topic<String>) Topic.find(TOPIC).orElseGet(() -> Topic.<String>builder(TOPIC).build());
        }
    }

    /** In process: a map, one per app. */
    static final class MemoryBook implements Book {
        private final Map<String, Job> jobs = new ConcurrentHashMap<>();
        private final Map<String, Integer> work = new ConcurrentHashMap<>();

        @Override
        public boolean create(String id, int workMs) {
            Job old = jobs.get(id);
            if (old != null && !old.state().equals("unqueued")) return false;
            boolean made = old == null ? jobs.putIfAbsent(id, new Job(id, "pending", 0, null)) == null
                    : jobs.replace(id, old, new Job(id, "pending", 0, null));
            if (made) work.put(id, workMs);
            return made;
        }

        @Override
        public Optional<Job> find(String id) {
            return Optional.ofNullable(jobs.get(id));
        }

        @Override
        public int delivered(String id, String node, int delivery) {
            jobs.computeIfPresent(id, (k, j) -> new Job(id, j.state(), delivery, node));
            return work.getOrDefault(id, DEFAULT_WORK_MS);
        }

        @Override
        public void state(String id, String state) {
            jobs.computeIfPresent(id, (k, j) -> new Job(id, state, j.deliveries(), j.node()));
        }
    }

    /** On Redis: a hash per job, made with HSETNX so two nodes given the same id at once make one job. */
    static final class RedisBook implements Book {
        private final RedisCommands<String, String> redis;

        RedisBook(RedisCommands<String, String> redis) {
            this.redis = redis;
        }

        @Override
        public boolean create(String id, int workMs) {
            String key = KEY_PREFIX + id;
            boolean made = redis.hsetnx(key, "state", "pending");
            if (!made && !"unqueued".equals(redis.hget(key, "state"))) return false;
            if (!made) redis.hset(key, "state", "pending"); // an earlier POST whose publish failed: this one queues it
            redis.hset(key, Map.of("deliveries", "0", "workMs", Integer.toString(workMs)));
            return true;
        }

        @Override
        public Optional<Job> find(String id) {
            Map<String, String> h = redis.hgetall(KEY_PREFIX + id);
            if (h.isEmpty() || !h.containsKey("state")) return Optional.empty();
            return Optional.of(new Job(id, h.get("state"), Integer.parseInt(h.getOrDefault("deliveries", "0")), h.get("node")));
        }

        @Override
        public int delivered(String id, String node, int delivery) {
            String key = KEY_PREFIX + id;
            redis.hset(key, Map.of("node", node, "deliveries", Integer.toString(delivery)));
            String work = redis.hget(key, "workMs");
            return work == null ? DEFAULT_WORK_MS : Integer.parseInt(work);
        }

        @Override
        public void state(String id, String state) {
            redis.hset(KEY_PREFIX + id, "state", state);
        }
    }
}
