import { describe, expect, it, vi } from 'vitest'
import { SandboxError } from '../../sandbox/sandboxError'
import { UploadQueue } from './uploads'

describe('UploadQueue', () => {
  it('uploads each file under the folder it was dropped on, and says plainly when the disk is full', async () => {
    const uploaded: string[] = []
    const queue = new UploadQueue(
      {
        upload: async (path: string) => {
          if (path.endsWith('big.bin'))
            throw new SandboxError('no-space', 'No space left in the sandbox (0.4 MB free)')
          uploaded.push(path)
        },
      },
      () => {},
    )
    queue.add('/home/user/up', [
      { file: new File(['a'], 'a.txt'), relativePath: 'a.txt' },
      { file: new File(['b'], 'big.bin'), relativePath: 'sub/big.bin' },
    ])
    await vi.waitFor(() =>
      expect(queue.getSnapshot().every((u) => u.state === 'done' || u.state === 'failed')).toBe(true),
    )
    expect(uploaded).toEqual(['/home/user/up/a.txt'])
    expect(queue.getSnapshot().find((u) => u.state === 'failed')).toMatchObject({
      path: '/home/user/up/sub/big.bin',
      error: 'No space left in the sandbox (0.4 MB free)',
    })
  })
})
