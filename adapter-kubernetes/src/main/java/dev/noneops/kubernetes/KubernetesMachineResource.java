package dev.noneops.kubernetes;

import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineListener;
import dev.noneops.ports.machine.MachineNames;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineResourceException.Kind;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import dev.noneops.ports.machine.SerialDelivery;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

/**
 * The {@link MachineResource} port over a Kubernetes API server, through fabric8
 * kubernetes-client on the JDK's HTTP client.
 *
 * <p>The Machine is handled as a {@code GenericKubernetesResource} with a {@code
 * ResourceDefinitionContext}, not as a typed custom-resource class: the port's records are the
 * model, and a typed class would be a second one to keep in step with the CRD, which would drop on
 * a full write whatever fields it did not declare. Reading takes the fields the port models from
 * the object's tree; a status write is a JSON merge patch of the status subresource carrying those
 * fields only, with the {@code resourceVersion} that was read as its precondition, so the API
 * server refuses it with 409 when another writer came first, and leaves every field this adapter
 * does not know as it was.
 *
 * <p>A watch is the port's own loop over single watch requests, not an informer: fabric8 is told
 * never to reconnect a watch by itself, so every lost watch (a broken connection, a {@code 410
 * Gone}, a server that ends it) comes back here, where the Machine is read again and delivered as
 * {@code RESYNCED} before a new watch starts from that read's {@code resourceVersion}. A change
 * made while the watch was lost is therefore seen, whether or not the server could have replayed
 * it. The Machine is also read again every {@link KubernetesConnection#resyncPeriod()}.
 *
 * <p>A cluster without the Machine resource type is told from a missing Machine by API discovery
 * ({@code /apis/unbounded-cloud.io/v1alpha3} listing {@code machines}), asked only when an answer
 * was "not found" (a 404 says the same for both), as controller-runtime's REST mapper does.
 */
public final class KubernetesMachineResource implements MachineResource, AutoCloseable {
  /** How many times a status write is tried when it meets conflicts, each after a fresh read. */
  public static final int STATUS_WRITE_ATTEMPTS = 5;

  private final KubernetesClient client;
  private final KubernetesConnection connection;
  private final ScheduledExecutorService scheduler;
  private final ExecutorService delivery;
  private final AtomicLong requests = new AtomicLong();

  private KubernetesMachineResource(KubernetesClient client, KubernetesConnection connection) {
    this.client = client;
    this.connection = connection;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(daemonThreads("machine-watch"));
    this.delivery = Executors.newCachedThreadPool(daemonThreads("machine-events"));
  }

  /** A client of the API server {@code connection} names; nothing is asked before the first call. */
  public static KubernetesMachineResource connect(KubernetesConnection connection) {
    KubernetesClient client = KubernetesClients.of(connection);
    return new KubernetesMachineResource(client, connection);
  }

  /** The API requests this client has made: reads, writes, discovery, watch starts. */
  public long requests() {
    return requests.get();
  }

  @Override
  public Optional<Machine> get(String name) throws IOException {
    MachineNames.check(name);
    GenericKubernetesResource found = read(name);
    return Optional.ofNullable(found).map(MachineMapping::toMachine);
  }

  @Override
  public boolean create(String name, MachineSpec spec) throws IOException {
    MachineNames.check(name);
    // Asked first: a server may accept an object of a type it does not serve (the mock does), and
    // a missing CRD must never look like a registered Machine.
    requireMachineType(name);
    requests.incrementAndGet();
    try {
      machines().resource(MachineMapping.newMachine(name, spec)).create();
      return true;
    } catch (RuntimeException e) {
      if (MachineFailures.isConflict(e)) {
        return false; // AlreadyExists: the Machine is there, as asked
      }
      throw MachineFailures.of("create", name, e, connection.apiServer());
    }
  }

  @Override
  public MachineWatch watch(String name, MachineListener listener) throws IOException {
    MachineNames.check(name);
    ResumingMachineWatch watch =
        new ResumingMachineWatch(this, name, new SerialDelivery(listener, delivery));
    watch.start();
    return watch;
  }

  @Override
  public Machine updateStatus(String name, UnaryOperator<MachineStatus> mutation)
      throws IOException {
    MachineNames.check(name);
    for (int attempt = 1; attempt <= STATUS_WRITE_ATTEMPTS; attempt++) {
      GenericKubernetesResource stored = read(name);
      if (stored == null) {
        throw new MachineResourceException(
            Kind.NOT_FOUND, name, "machines.unbounded-cloud.io \"" + name + "\" not found");
      }
      Machine current = MachineMapping.toMachine(stored);
      MachineStatus next = mutation.apply(current.status());
      if (next.equals(current.status())) {
        return current;
      }
      Map<String, Object> patch =
          MachineMapping.statusPatch(current, MachineMapping.statusTree(stored), next);
      requests.incrementAndGet();
      try {
        GenericKubernetesResource written = machines()
            .withName(name)
            .subresource("status")
            .patch(
                PatchContext.of(PatchType.JSON_MERGE),
                client.getKubernetesSerialization().asJson(patch));
        return MachineMapping.toMachine(written);
      } catch (RuntimeException e) {
        if (!MachineFailures.isConflict(e)) {
          throw MachineFailures.of("update status of", name, e, connection.apiServer());
        }
      }
    }
    throw new MachineResourceException(
        Kind.CONFLICT,
        name,
        "update status of machines/" + name + ": the object kept changing (" + STATUS_WRITE_ATTEMPTS
            + " attempts, each after a fresh read)");
  }

  /** Stops every watch of this client and closes its connections. */
  @Override
  public void close() {
    scheduler.shutdownNow();
    delivery.shutdown();
    client.close();
  }

  // ---- for the watch ----

  KubernetesConnection connection() {
    return connection;
  }

  ScheduledExecutorService scheduler() {
    return scheduler;
  }

  AtomicLong requestCounter() {
    return requests;
  }

  MixedOperation<
          GenericKubernetesResource,
          GenericKubernetesResourceList,
          Resource<GenericKubernetesResource>>
      machines() {
    return client.genericKubernetesResources(MachineMapping.CONTEXT);
  }

  /** The stored object, null when there is none (after discovery said the type is served). */
  GenericKubernetesResource read(String name) throws MachineResourceException {
    requests.incrementAndGet();
    GenericKubernetesResource found;
    try {
      found = machines().withName(name).get();
    } catch (RuntimeException e) {
      throw MachineFailures.of("get", name, e, connection.apiServer());
    }
    if (found == null) {
      requireMachineType(name);
    }
    return found;
  }

  private void requireMachineType(String name) throws MachineResourceException {
    requests.incrementAndGet();
    APIResourceList served;
    try {
      served = client.getApiResources(MachineMapping.GROUP + "/" + MachineMapping.VERSION);
    } catch (RuntimeException e) {
      if (!MachineFailures.isNotFound(e)) {
        throw MachineFailures.of(
            "discover the Machine resource type for", name, e, connection.apiServer());
      }
      served = null;
    }
    boolean machinesServed = served != null
        && served.getResources() != null
        && served.getResources().stream()
            .map(APIResource::getName)
            .anyMatch(MachineMapping.PLURAL::equals);
    if (!machinesServed) {
      throw new MachineResourceException(
          Kind.NO_MACHINE_RESOURCE_TYPE,
          name,
          "the API server at " + connection.apiServer() + " does not serve "
              + MachineMapping.PLURAL + "." + MachineMapping.GROUP + "/" + MachineMapping.VERSION
              + ": the Machine CRD is not installed");
    }
  }

  private static ThreadFactory daemonThreads(String name) {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread t = new Thread(runnable, name + "-" + count.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }
}
