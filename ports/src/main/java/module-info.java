/**
 * The ports of noneops: the interfaces through which the core reaches the host (files, systemd,
 * processes, mounts, the network, the kernel, downloads, the cluster), and their value types. Every
 * package is API: adapters implement it and the core calls it. It depends on the JDK only.
 */
module dev.noneops.ports {
  exports dev.noneops.ports;
  exports dev.noneops.ports.cluster;
  exports dev.noneops.ports.commands;
  exports dev.noneops.ports.download;
  exports dev.noneops.ports.events;
  exports dev.noneops.ports.files;
  exports dev.noneops.ports.health;
  exports dev.noneops.ports.host;
  exports dev.noneops.ports.kernel;
  exports dev.noneops.ports.machine;
  exports dev.noneops.ports.metrics;
  exports dev.noneops.ports.mounts;
  exports dev.noneops.ports.network;
  exports dev.noneops.ports.process;
  exports dev.noneops.ports.service;
  exports dev.noneops.ports.systemd;
  exports dev.noneops.ports.time;
}
