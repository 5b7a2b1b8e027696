package dev.noneops.testkit.pods;

/**
 * A container the node's containerd runs as kubelet would run a pod's: in namespace {@code k8s.io},
 * under a runc shim, in a cgroup below {@code /kubepods}, in a network namespace of its own set
 * up by the CNI plugins, with {@code /data} bind-mounted from its volume directory below
 * {@code /var/lib/kubelet/pods/<uid>/volumes}.
 *
 * @param id the container's id
 * @param uid the pod's uid (its cgroup and volume directory)
 * @param pid its process, seen from the sandbox's PID namespace
 * @param shimPid its shim's process
 * @param netns its network namespace ({@code net:[<inode>]})
 * @param address its IPv4 address on the pod network
 * @param hostVeth the host end of its veth pair
 */
public record RealPod(
    String id, String uid, long pid, long shimPid, String netns, String address, String hostVeth) {

  /** Its cgroup below the sandbox's root: {@code /kubepods/besteffort/pod<uid>}. */
  public String cgroup() {
    return "/kubepods/besteffort/pod" + uid;
  }

  /** The directory of its volumes: {@code /var/lib/kubelet/pods/<uid>/volumes}. */
  public String volumes() {
    return "/var/lib/kubelet/pods/" + uid + "/volumes";
  }
}
