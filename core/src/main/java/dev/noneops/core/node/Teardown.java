package dev.noneops.core.node;

import dev.noneops.core.layout.HostPaths;
import dev.noneops.core.layout.Layout;
import dev.noneops.core.node.internal.teardown.TeardownSteps;
import dev.noneops.ports.HostPorts;
import java.io.IOException;
import java.util.Objects;
import org.slf4j.Logger;

/**
 * Removes a none node from its host without harming anything it does not own.
 *
 * <p>The seed's overrides map onto the arguments: {@code Layout} is the layout, {@code
 * SystemdDir} and {@code Root} are {@link HostPaths#systemdDir()} and {@link HostPaths#root()}
 * (every host path outside the layout and the systemd directory is below the root), and {@code
 * MountInfo}, {@code Proc} and {@code CgroupRoot} are the mounts, processes and cgroups ports of
 * {@link HostPorts}, which an adapter points wherever a caller wants ({@code RealHost}'s builder
 * does). {@code Run} has no counterpart: units are driven through the systemd port, and the
 * teardown runs no host command of its own.
 *
 * <p>The steps slot into the caller's reset order: {@link #stop()}, then {@link #removeConfig()},
 * then {@link #destroy()}, with host-global cleanup owned by the caller in between. Every step is idempotent and safe to interrupt: run again, it continues from
 * what is on the host. What a step removed and what it kept (and why) is its
 * {@link TeardownResult}; a step never throws for one item that failed, it reports it.
 *
 * <p>What is this node's: units and drop-ins whose first line is the marker; shared files in the
 * ownership record that still have the recorded content; shims carrying this node's containerd
 * address and namespace (or run from the layout) inside the node's cgroups; the pod cgroups; and
 * the data directories {@code /var/lib/kubelet}, {@code /var/lib/containerd}, {@code
 * /run/containerd} and the layout, minus whatever is mounted below them and cannot be unmounted,
 * minus what running shims of other runtimes keep in {@code /run/containerd}, and minus {@code
 * /var/lib/containerd} whole while its metadata holds a namespace other than {@code k8s.io}
 * (reported, blocking completion), and minus the version (and the layout's links to it) whose
 * shim binary a running shim of another runtime executes (reported, blocking completion); and
 * what the node's pods added to {@code /etc/cni/net.d} and {@code /var/lib/cni}, never an entry
 * that was there before the node came.
 */
public final class Teardown {
  private final TeardownSteps steps;

  /** A teardown with default options, logging to this class's logger. */
  public Teardown(HostPorts ports, Layout layout, HostPaths paths) {
    this(new TeardownSteps(ports, layout, paths));
  }

  /** A teardown with {@code options}, logging to {@code log}. */
  public Teardown(
      HostPorts ports, Layout layout, HostPaths paths, TeardownOptions options, Logger log) {
    this(new TeardownSteps(ports, layout, paths, options, log));
  }

  Teardown(TeardownSteps steps) {
    this.steps = Objects.requireNonNull(steps, "steps");
  }

  /** The teardown of the real host: default layout, units in {@code /etc/systemd/system}. */
  public static Teardown forRealHost(HostPorts ports) {
    return new Teardown(TeardownSteps.forRealHost(ports));
  }

  /**
   * Whether this node installed itself on the host: a unit or drop-in carrying the marker, its
   * ownership record or applied configuration, the {@code current} link, an upgrade journal or
   * saved configuration, or a version with a valid manifest. A lock file or an empty layout is no
   * evidence, so a host whose kubelet and containerd are someone else's is never taken for this
   * node. Works after the applied config is gone.
   *
   * @throws NodeException when the host cannot be read
   */
  public boolean present() {
    try {
      return steps.present();
    } catch (IOException e) {
      throw new NodeException("present: cannot read the host: " + e.getMessage(), e);
    }
  }

  /**
   * Stops this node's units (kubelet, containerd, LocalDNS, in that order); touches no file.
   *
   * @throws InterruptedException when interrupted while waiting for a unit to stop
   */
  public TeardownResult stop() throws InterruptedException {
    return TeardownResult.of(steps.stop());
  }

  /**
   * Removes the configuration this node wrote at the shared host paths: its units and drop-ins
   * (stopped and disabled first, then systemd reloaded), the agent's state and run-time directory,
   * the recorded shared files that still have the recorded content (putting back what was there
   * before the node came), the directories it created once empty, and the ownership record.
   *
   * @throws InterruptedException when interrupted
   */
  public TeardownResult removeConfig() throws InterruptedException {
    return TeardownResult.of(steps.removeConfig());
  }

  /**
   * Removes the node: its units, its container shims, the pods' cgroups, the data directories
   * (after unmounting what pods left mounted below them) and finally the layout with every
   * version. While anything of the node had to be kept (a mount that would not unmount, a process
   * that would not die), the layout directory itself stays so that {@link #present()} still finds
   * the node and the teardown can be run again.
   *
   * @throws InterruptedException when interrupted
   */
  public TeardownResult destroy() throws InterruptedException {
    return TeardownResult.of(steps.destroy());
  }

  /** The steps, for the node's reset and upgrade, which run parts of them on their own. */
  TeardownSteps steps() {
    return steps;
  }
}
