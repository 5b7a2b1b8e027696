package dev.noneops.cli.wiring;

import dev.noneops.cli.ClusterClients;
import dev.noneops.core.layout.HostPaths;
import dev.noneops.kubernetes.KubeconfigConnection;
import dev.noneops.kubernetes.KubernetesClusterNode;
import dev.noneops.kubernetes.KubernetesConnection;
import dev.noneops.kubernetes.KubernetesMachineResource;
import dev.noneops.ports.cluster.ClusterEvent;
import dev.noneops.ports.cluster.ClusterNode;
import dev.noneops.ports.cluster.ClusterNodeException;
import dev.noneops.ports.cluster.Eviction;
import dev.noneops.ports.cluster.NodeObject;
import dev.noneops.ports.cluster.NodeReadiness;
import dev.noneops.ports.cluster.PodOnNode;
import dev.noneops.ports.files.HostFiles;
import dev.noneops.ports.machine.Machine;
import dev.noneops.ports.machine.MachineListener;
import dev.noneops.ports.machine.MachineResource;
import dev.noneops.ports.machine.MachineResourceException;
import dev.noneops.ports.machine.MachineSpec;
import dev.noneops.ports.machine.MachineStatus;
import dev.noneops.ports.machine.MachineWatch;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The daemon's clients of the node's cluster, with kubelet's own credentials: kubelet's client
 * kubeconfig ({@link HostPaths#kubeconfig()}, {@code /var/lib/kubelet/kubeconfig}: the client
 * certificate kubelet rotates) once the node has joined, the bootstrap kubeconfig ({@link
 * HostPaths#bootstrapKubeconfig()}: the bootstrap token, which expires) before. The files are read
 * again at every use (they are small): when what they say changed — kubelet rotated its
 * certificate, or wrote its client kubeconfig after TLS bootstrap — the fabric8 clients are built
 * again, and the daemon's watch, seeing new clients, starts again through them. When neither file
 * can be used, every call fails as {@code FORBIDDEN} with the reason, which the daemon logs and
 * tries again later.
 */
final class KubeletKubeconfigCluster implements ClusterClients {
  private static final KubernetesConnection DEFAULTS =
      KubernetesConnection.to(URI.create("https://unset.invalid"));

  private final HostFiles files;
  private final HostPaths paths;
  private KubernetesConnection connected;
  private KubernetesMachineResource machines;
  private KubernetesClusterNode nodes;
  private MachineResource unusableMachines;
  private ClusterNode unusableNodes;

  KubeletKubeconfigCluster(HostFiles files, HostPaths paths) {
    this.files = files;
    this.paths = paths;
  }

  @Override
  public synchronized MachineResource machines() {
    return current() ? machines : unusableMachines;
  }

  @Override
  public synchronized ClusterNode nodes() {
    return current() ? nodes : unusableNodes;
  }

  @Override
  public synchronized void close() {
    release();
    configured.forEach(KubernetesClusterNode::close);
    configured.clear();
  }

  /** How long one request to an API server a configuration names may take. */
  private static final Duration CONFIGURED_TIMEOUT = Duration.ofSeconds(10);

  private final List<KubernetesClusterNode> configured = new ArrayList<>();

  @Override
  public synchronized Optional<ClusterNode> configured(URI apiServer, String caPem, String token) {
    KubernetesConnection connection = KubernetesConnection.to(apiServer)
        .withRequestTimeout(CONFIGURED_TIMEOUT)
        .withCaCertPem(caPem);
    if (!token.isEmpty()) {
      connection = connection.withBearerToken(token);
    }
    KubernetesClusterNode nodes = KubernetesClusterNode.connect(connection);
    configured.add(nodes);
    return Optional.of(nodes);
  }

  /** Whether the files give a connection now; the clients rebuilt when it changed. */
  private boolean current() {
    KubernetesConnection wanted;
    try {
      wanted = read();
    } catch (IOException e) {
      return unusable(e.getMessage());
    }
    if (!wanted.equals(connected)) {
      release();
      try {
        machines = KubernetesMachineResource.connect(wanted);
        nodes = KubernetesClusterNode.connect(wanted);
      } catch (RuntimeException e) {
        // a certificate or key the client cannot load
        release();
        return unusable("the client cannot be built with them: " + e.getMessage()
            + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")"));
      }
      connected = wanted;
    }
    return true;
  }

  private boolean unusable(String reason) {
    String why = "no usable credentials for the cluster: " + reason;
    release();
    unusableMachines = new UnusableMachines(why);
    unusableNodes = new UnusableNodes(why);
    return false;
  }

  private KubernetesConnection read() throws IOException {
    for (Path kubeconfig : List.of(paths.kubeconfig(), paths.bootstrapKubeconfig())) {
      if (files.exists(kubeconfig)) {
        return KubeconfigConnection.read(kubeconfig, files.read(kubeconfig), files::read, DEFAULTS);
      }
    }
    throw new IOException(
        "neither " + paths.kubeconfig() + " nor " + paths.bootstrapKubeconfig() + " exists");
  }

  private void release() {
    if (machines != null) {
      machines.close();
    }
    if (nodes != null) {
      nodes.close();
    }
    machines = null;
    nodes = null;
    connected = null;
  }

  /** Every call refused with the reason the credentials cannot be used. */
  private record UnusableMachines(String why) implements MachineResource {
    @Override
    public Optional<Machine> get(String name) throws IOException {
      throw refused(name);
    }

    @Override
    public boolean create(String name, MachineSpec spec) throws IOException {
      throw refused(name);
    }

    @Override
    public MachineWatch watch(String name, MachineListener listener) throws IOException {
      throw refused(name);
    }

    @Override
    public Machine updateStatus(String name, UnaryOperator<MachineStatus> mutation)
        throws IOException {
      throw refused(name);
    }

    private MachineResourceException refused(String name) {
      return new MachineResourceException(MachineResourceException.Kind.FORBIDDEN, name, why);
    }
  }

  /** Every call refused with the reason the credentials cannot be used. */
  private record UnusableNodes(String why) implements ClusterNode {
    @Override
    public Optional<NodeObject> node(String node) throws IOException {
      throw refused(node);
    }

    @Override
    public void cordon(String node) throws IOException {
      throw refused(node);
    }

    @Override
    public void uncordon(String node) throws IOException {
      throw refused(node);
    }

    @Override
    public List<PodOnNode> podsOn(String node) throws IOException {
      throw refused(node);
    }

    @Override
    public Eviction evict(PodOnNode pod) throws IOException {
      throw refused(pod.ref());
    }

    @Override
    public boolean deleteNode(String node) throws IOException {
      throw refused(node);
    }

    @Override
    public Optional<NodeReadiness> readiness(String node) throws IOException {
      throw refused(node);
    }

    @Override
    public String serverVersion() throws IOException {
      throw refused("/version");
    }

    @Override
    public void recordEvent(ClusterEvent event) throws IOException {
      throw refused(event.regarding().name());
    }

    private ClusterNodeException refused(String subject) {
      return new ClusterNodeException(ClusterNodeException.Kind.FORBIDDEN, subject, why);
    }
  }
}
