package dev.noneops.ports.machine;

import java.io.IOException;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The cluster-scoped {@code Machine} objects ({@code machines.unbounded-cloud.io}, version
 * {@code v1alpha3}) of the cluster a node belongs to: the node registers its own, follows its spec
 * and reports its status. Kubernetes is the fleet's engine; this port is how the node's daemon
 * takes its orders from it.
 *
 * <p>Failures follow the ports' contract (package {@code dev.noneops.ports}), with the API
 * server's words instead of an errno: a call the API server refuses or cannot be asked is a checked
 * {@link MachineResourceException} whose {@link MachineResourceException.Kind} callers branch on
 * (a cluster without the {@code Machine} resource type is {@link
 * MachineResourceException.Kind#NO_MACHINE_RESOURCE_TYPE}, never a missing object); a name that is
 * not a DNS subdomain is an {@link IllegalArgumentException}, raised before the API server is
 * asked ({@link MachineNames#check}); a Machine that does not exist is an answer ({@link
 * Optional#empty()} from {@link #get}), not an error.
 */
public interface MachineResource {

  /** The Machine named {@code name}, empty when there is none. */
  Optional<Machine> get(String name) throws IOException;

  /**
   * Creates the Machine {@code name} with {@code spec} and an empty status, unless one of that name
   * exists. A Machine that already exists (found, or the create answered {@code AlreadyExists})
   * counts as success and is left as it is: the answer is false then, true when this call created
   * it.
   */
  boolean create(String name, MachineSpec spec) throws IOException;

  /**
   * Follows the Machine {@code name} until the returned handle is closed. The listener gets, one at
   * a time and in order on a thread of the port: {@link MachineEvent.Kind#ADDED} with the object as
   * it is when the watch starts (when it exists) or when it is created, {@link
   * MachineEvent.Kind#MODIFIED} for each change seen, {@link MachineEvent.Kind#DELETED} when it is
   * removed, and {@link MachineEvent.Kind#RESYNCED} with the object as the API server holds it
   * after every re-read: after a lost watch has been resumed (so a change made while the watch was
   * lost is never missed) and periodically. A Machine found gone at a re-read is {@link
   * MachineEvent.Kind#DELETED}. A lost connection is never the listener's business: the port
   * resumes the watch by itself. An exception thrown by the listener is swallowed and the watch
   * goes on.
   */
  MachineWatch watch(String name, MachineListener listener) throws IOException;

  /**
   * Replaces the status of the Machine {@code name} with {@code mutation} applied to its current
   * status, through the status subresource under optimistic concurrency: when another writer
   * changed the object since it was read (a {@code resourceVersion} conflict), the port reads it
   * again and applies {@code mutation} to that, a bounded number of times; it never overwrites
   * what it has not read. The mutation may therefore run more than once and must be a function of
   * its argument only. A mutation that changes nothing writes nothing. Status fields this port does
   * not model are kept as the API server has them.
   *
   * @return the Machine as stored after the write
   * @throws MachineResourceException {@link MachineResourceException.Kind#NOT_FOUND} when there is
   *     no such Machine, {@link MachineResourceException.Kind#CONFLICT} when every attempt met a
   *     conflict
   */
  Machine updateStatus(String name, UnaryOperator<MachineStatus> mutation) throws IOException;
}
