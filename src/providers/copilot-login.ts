// GitHub's OAuth device flow (RFC 8628) with the Copilot app's client id: a code for the user, then polling.
import * as z from 'zod';
import { ProviderError, ProviderUnavailableError } from '../core/errors.js';

/** The VS Code Copilot GitHub App, which every open-source Copilot client logs in as. */
export const copilotClientId = 'Iv1.b507a08c87ecfe98';

export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  /** Seconds between polls. */
  interval: number;
  /** Seconds until the code expires. */
  expiresIn: number;
}

const deviceCodeResponse = z.object({
  device_code: z.string().min(1),
  user_code: z.string().min(1),
  verification_uri: z.string().min(1),
  interval: z.number().nonnegative().default(5),
  expires_in: z.number().positive().default(900),
});

// Errors come back as HTTP 200 with an `error` field; only the body tells pending from granted.
const accessTokenResponse = z.object({
  access_token: z.string().min(1).optional(),
  error: z.string().optional(),
  interval: z.number().nonnegative().optional(),
});

async function postJson(url: string, body: unknown, signal?: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ProviderUnavailableError(
      'provider_unreachable',
      `cannot reach GitHub at ${new URL(url).origin}`,
      {
        hint: 'check the network, or provider.copilot.github_url',
        cause: error,
      },
    );
  }
  const text = await response.text();
  if (!response.ok) throw new ProviderError(`GitHub answered HTTP ${response.status} at ${url}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError(`GitHub's answer at ${url} is not JSON`);
  }
}

export async function requestDeviceCode(githubUrl: string, signal?: AbortSignal): Promise<DeviceCode> {
  const url = `${githubUrl.trim().replace(/\/+$/, '')}/login/device/code`;
  const parsed = deviceCodeResponse.safeParse(
    await postJson(url, { client_id: copilotClientId, scope: 'read:user' }, signal),
  );
  if (!parsed.success)
    throw new ProviderError(`GitHub's device code response from ${url} has an unexpected shape`);
  const d = parsed.data;
  return {
    deviceCode: d.device_code,
    userCode: d.user_code,
    verificationUri: d.verification_uri,
    interval: d.interval,
    expiresIn: d.expires_in,
  };
}

const loginFailed = (message: string) =>
  new ProviderUnavailableError('credentials_rejected', message, {
    hint: 'run `keel auth login copilot` again',
  });

/** Polls until the user grants access; returns the GitHub token. Denied or expired codes throw (exit 3). */
export async function pollAccessToken(
  githubUrl: string,
  code: DeviceCode,
  signal?: AbortSignal,
): Promise<string> {
  const url = `${githubUrl.trim().replace(/\/+$/, '')}/login/oauth/access_token`;
  let interval = code.interval;
  const deadline = Date.now() + code.expiresIn * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000, signal);
    const parsed = accessTokenResponse.safeParse(
      await postJson(
        url,
        {
          client_id: copilotClientId,
          device_code: code.deviceCode,
          grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        },
        signal,
      ),
    );
    if (!parsed.success)
      throw new ProviderError(`GitHub's access token response from ${url} has an unexpected shape`);
    const { access_token: token, error } = parsed.data;
    if (token) return token;
    switch (error) {
      case 'authorization_pending':
        continue;
      case 'slow_down':
        // GitHub names the new interval; RFC 8628 says add 5 s when it does not.
        interval = parsed.data.interval ?? interval + 5;
        continue;
      case 'expired_token':
        throw loginFailed('the GitHub login code expired before it was entered');
      case 'access_denied':
        throw loginFailed('the GitHub login was denied');
      default:
        throw new ProviderError(`GitHub login failed: ${error ?? 'no token and no error in the answer'}`);
    }
  }
  throw loginFailed('the GitHub login code expired before it was entered');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
