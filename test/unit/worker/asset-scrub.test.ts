import { describe, expect, it } from 'vitest';
import { scrubRefusedAssets } from '../../../lib/worker/asset-scrub.js';
import { NetworkGuard, type Resolver } from '../../../lib/worker/network-guard.js';

const resolve: Resolver = async (host) => (host === 'cdn.example' ? ['93.184.216.34'] : ['10.0.0.7']);
const link = { s3Key: 'assets/b/t/images/x.png', downloadUrl: 'https://s3/x?sig', signedUrl: 'https://s3/x?sig' };

describe('scrubRefusedAssets', () => {
  it('drops the links of assets fetched from refused addresses and keeps the rest', async () => {
    // Prepare
    const results = {
      images: {
        images: [
          { src: 'https://cdn.example/a.png', originalSrc: 'https://cdn.example/a.png', ...link },
          { src: 'http://169.254.169.254/latest/meta-data/', originalSrc: 'http://169.254.169.254/latest/meta-data/', ...link },
          { src: 'data:image/png;base64,AAAA', ...link },
        ],
      },
      fonts: { fonts: [{ family: 'X', faceUrl: 'http://intranet.corp/x.woff2', originalFaceUrl: 'http://intranet.corp/x.woff2', ...link }] },
      logo: { logo: { found: true, src: 'https://cdn.example/logo.svg', originalSrc: 'https://cdn.example/logo.svg', ...link } },
    };
    // Act
    const removed = await scrubRefusedAssets(results, new NetworkGuard({ allowPrivate: false, resolve }));
    // Assess
    expect(removed).toBe(2);
    const [publicImg, metadataImg, dataImg] = results.images.images;
    expect(publicImg).toMatchObject(link);
    expect(dataImg).toMatchObject(link);
    expect(metadataImg).not.toHaveProperty('downloadUrl');
    expect(metadataImg).not.toHaveProperty('s3Key');
    expect(metadataImg).not.toHaveProperty('signedUrl');
    expect(results.fonts.fonts[0]).not.toHaveProperty('downloadUrl');
    expect(results.logo.logo).toMatchObject(link);
  });

  it('changes nothing when private networks are allowed', async () => {
    const results = { images: { images: [{ originalSrc: 'http://10.0.0.1/a.png', ...link }] } };
    expect(await scrubRefusedAssets(results, new NetworkGuard({ allowPrivate: true, resolve }))).toBe(0);
    expect(results.images.images[0]).toMatchObject(link);
  });
});
