import type { MonitorRecord } from '@bhis/webhooks';
import type { MonitorDto } from './monitor.dto';
import { API_BASE_PATH } from '@bhis/envelope';

export function monitorLinks(base: string, id: string, portfolioId: string | null = null): Record<string, string> {
  const self = `${base}${API_BASE_PATH}/portfolio/monitor/${id}`;
  const links: Record<string, string> = { self, deliveries: `${self}/deliveries`, test: `${self}/test`, rotate_secret: `${self}/rotate-secret` };
  if (portfolioId !== null) links['portfolio'] = `${base}${API_BASE_PATH}/portfolios/${portfolioId}`;
  return links;
}

/** The API shape of a monitor (never the signing secret). */
export function monitorView(monitor: MonitorRecord, base: string): MonitorDto {
  return {
    id: monitor.id,
    name: monitor.name,
    webhook_url: monitor.webhookUrl,
    grades: monitor.grades,
    include_uncertain: monitor.includeUncertain,
    bbl_count: monitor.bblCount,
    portfolio_id: monitor.portfolioId,
    status: monitor.status,
    disabled_reason: monitor.disabledReason,
    disabled_at: monitor.disabledAt?.toISOString() ?? null,
    previous_secret_expires_at: monitor.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: monitor.createdAt.toISOString(),
    updated_at: monitor.updatedAt.toISOString(),
    _links: monitorLinks(base, monitor.id, monitor.portfolioId),
  };
}
