import { useMutation } from '@tanstack/react-query';
import type { SocialCaptionRequest, SocialCaptionResponse, SocialPlatform } from '@tiendita/contracts';
import { apiRequest } from '../../../lib/query-client';

/** POST /api/ai/social-caption: a caption for a platform with the store's (or product's) public link. */
export async function generateSocialCaption(body: { type: 'store' | 'product'; platform: SocialPlatform; data: SocialCaptionRequest['data'] }): Promise<SocialCaptionResponse> {
  const res = await apiRequest('POST', '/api/ai/social-caption', body);
  return (await res.json()) as SocialCaptionResponse;
}

/**
 * The caption, or `fallback` when the call fails (spec: captions fall back to a default text on
 * failure), so the share dialog always has something to share.
 */
export async function socialCaptionOr(body: Parameters<typeof generateSocialCaption>[0], fallback: string): Promise<string> {
  try {
    return (await generateSocialCaption(body)).caption;
  } catch {
    return fallback;
  }
}

export function useSocialCaption() {
  return useMutation({ mutationFn: generateSocialCaption });
}
