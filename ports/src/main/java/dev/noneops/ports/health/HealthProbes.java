package dev.noneops.ports.health;

import java.net.URI;
import java.time.Duration;

/** One-shot health checks of the node's daemons. Each returns quickly and never throws. */
public interface HealthProbes {

  /** Whether an HTTP GET of {@code url} answers 200 within {@code timeout} (kubelet's healthz). */
  boolean httpOk(URI url, Duration timeout);

  /**
   * Whether a DNS server at {@code address}:{@code port} answers a query for {@code name} within
   * {@code timeout} (any well-formed response, NXDOMAIN included, counts as answering).
   */
  boolean dnsAnswers(String address, int port, String name, Duration timeout);
}
